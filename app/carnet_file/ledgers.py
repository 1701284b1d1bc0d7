"""A carnet file's gang ledgers brought in (app/carnet_file/restore.py): each line as it was
recorded, the gang's state after it (a copy of its share, when this server has it), the
lines that recorded a battle again named again."""

from collections.abc import Mapping
from datetime import datetime

from pydantic import BaseModel

from app.carnet_file.models import LINE_FIELDS, FileLine
from app.carnet_file.state import RestoreState
from app.roster_service import frozen_share, snapshot
from app.store import carnet_file as store
from app.store.models import Battle, Roster, Share, utcnow
from app.store.rosters import Frozen, create_share


class LedgerSteps(RestoreState):
    """The ledger steps of a restore."""

    def ledgers(self) -> dict[tuple[int, int], tuple[Battle, FileLine]]:
        """Every gang's lines, as they were recorded; by (list, battle number)."""
        codes = [line.share for gang in self.file.gangs for line in gang.battles if line.share]
        frozen = store.shares(session=self.session, codes=codes)
        out: dict[tuple[int, int], tuple[Battle, FileLine]] = {}
        for at, gang in enumerate(self.file.gangs):
            found = self.rosters.get(gang.roster)
            if found is None:
                detail = f"rosters[{gang.roster}] did not come in: its ledger neither."
                self.skip(f"gangs[{at}]", "gang_not_restored", detail)
                continue
            fallback: list[Share] = []
            for number, line in enumerate(sorted(gang.battles, key=lambda line: line.battle)):
                where = f"gangs[{at}].battles[{number}]"
                if (gang.roster, line.battle) in out:
                    self.skip(where, "duplicate_battle", f"Battle {line.battle} twice.")
                    continue
                share = self.line_share(where, found, line, frozen, fallback)
                row = self.line(found[0], line, share.code)
                out[(gang.roster, line.battle)] = (row, line)
        self.done.battles = len(out)
        return out

    def line(self, roster: Roster, line: FileLine, share_code: str) -> Battle:
        campaign = self.campaigns.get(line.campaign) if line.campaign is not None else None
        opponent = (
            self.rosters.get(line.opponent_roster) if line.opponent_roster is not None else None
        )
        row = Battle(
            roster_id=roster.id,
            number=line.battle,
            campaign_id=campaign.id if campaign is not None else None,
            opponent_roster_id=opponent[0].id if opponent is not None and campaign else None,
            share_code=share_code,
            voided_at=line.voided_at,
            created_at=line.recorded_at or utcnow(),
            **{name: getattr(line, name) for name in LINE_FIELDS},
        )
        self.session.add(row)
        return row

    def line_share(
        self,
        where: str,
        found: tuple[Roster, BaseModel],
        line: FileLine,
        frozen: Mapping[str, Share],
        fallback: list[Share],
    ) -> Share:
        """The gang's state after the line: a copy of the share it named when this server
        has it; else (another server's file) one share of the gang as it comes in, said."""
        roster, parsed = found
        old = frozen.get(line.share or "")
        if old is not None and isinstance(old.snapshot, dict):
            content = dict(old.snapshot)
            if isinstance(content.get("ledger"), dict):
                content["ledger"] = {**content["ledger"], "roster": roster.id}
            copied = Frozen(roster.system, old.catalogue_version, content, old.etag)
            return self.new_share(roster, copied, old.created_at)
        self.skip(
            where, "battle_state", "The gang's state after this battle is not on this server."
        )
        if not fallback:
            system = self.systems[roster.system]
            content = {**snapshot(system, parsed), "ledger": {"roster": roster.id}}
            made = frozen_share(system, content, 1 << 30)
            fallback.append(self.new_share(roster, made, utcnow()))
        return fallback[0]

    def new_share(self, roster: Roster, made: Frozen, when: datetime) -> Share:
        return create_share(
            session=self.session, roster_id=roster.id, frozen=made, created_at=when, commit=False
        )

    def confirm(self, lines: Mapping[tuple[int, int], tuple[Battle, FileLine]]) -> None:
        """A line that recorded again another gang's line of the file names it again."""
        for row, line in lines.values():
            same = line.same_as
            other = lines.get((same.roster, same.battle)) if same is not None else None
            if other is not None:
                row.confirms_id = other[0].id
                self.session.add(row)
