"""Every page a player can reach, in the states that change its markup (an example list in
the editor, its share page and play sheet, a creator showing errors...), fetched through
TestClient. The HTML validity test and the browser's axe test read the same list."""

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import SYSTEMS

# What a player can type wrong in each creator (a number input sends digits only, in or out
# of its range): its errors are shown beside the fields.
BAD_CREATOR_VALUES: dict[str, dict[str, str]] = {
    "dcsystem": {"level": "7"},
    "nolimits": {"p_AC": "99", "w0_CdA": "0"},
    "infinity": {"p_CC": "200", "o0_swc": "0,3"},
    "bastos": {"rep": "500"},
    "necrowarzone": {"xp": "2000000", "light_wounds": "50", "p_CT": "-30"},
}


def bad_creator_values(system: str, creator: str) -> dict[str, str]:
    """`BAD_CREATOR_VALUES` of a system listed there; of any other, its creator's first
    number field that has a maximum, one past it (what a player types out of range)."""
    if system in BAD_CREATOR_VALUES:
        return BAD_CREATOR_VALUES[system]
    for tag in re.findall(r"<input\b[^>]*>", creator.split('id="creator"', 1)[1]):
        name, top = re.search(r'name="([^"]+)"', tag), re.search(r'max="(-?\d+)"', tag)
        if 'type="number"' in tag and name and top:
            return {name.group(1).replace("-", "_"): str(int(top.group(1)) + 1)}
    raise AssertionError(f"{system}: no number field with a maximum in its creator")


@dataclass
class Page:
    name: str
    path: str  # what a browser opens to see it ("" when only a POST shows it)
    html: str


def example_list(client: TestClient, system: str) -> tuple[str, str]:
    """An example list of `system`, stored twice: opened in the editor (its path), and
    shared through the API (its share page's path)."""
    catalogue = client.get(f"/api/v1/systems/{system}/catalogue").json()
    example = catalogue["examples"][0]
    response = client.post("/listes", data={"system": system, "example": example["id"]})
    assert response.status_code == 303, response.text
    stored = client.post("/api/v1/rosters", json=example["document"]).json()
    shared = client.post(
        f"/api/v1/rosters/{stored['id']}/shares",
        headers={"Authorization": f"Bearer {stored['edit_token']}"},
    )
    assert shared.status_code == 201, shared.text
    return str(response.headers["location"]), f"/s/{shared.json()['code']}"


def pages(client: TestClient) -> list[Page]:
    """Every page, fetched with `client` (a browser-like TestClient: same-origin, no
    redirects followed)."""
    found: list[Page] = []

    def get(name: str, path: str, status: int = 200) -> None:
        response = client.get(path, headers={"Accept": "text/html"})
        assert response.status_code == status, (path, response.status_code)
        found.append(Page(name, path, response.text))

    get("accueil", "/")
    get("mes listes (vide)", "/listes")
    get("page introuvable", "/nulle-part", 404)
    for system in SYSTEMS:
        get(f"{system} nouvelle liste", f"/listes/nouvelle?system={system}")
        get(f"{system} catalogue", f"/{system}/catalogue")
        get(f"{system} créateur", f"/{system}/createur")
        fields = form_fields(found[-1].html, "creator")
        wrong = bad_creator_values(system, found[-1].html)
        bad = client.post(f"/{system}/createur", data=changed(fields, **wrong))
        assert bad.status_code == 422, (system, bad.status_code)
        found.append(Page(f"{system} créateur (erreurs)", "", bad.text))
        editor, code = example_list(client, system)
        get(f"{system} liste", editor)
        listed = editor.removeprefix("/r/")
        get(f"{system} catalogue pour une liste", f"/{system}/catalogue?liste={listed}&ajoute=1")
        get(f"{system} créateur pour une liste", f"/{system}/createur?liste={listed}")
        get(f"{system} partage", code)
        get(f"{system} feuille", f"{code}/feuille")
        get(f"{system} feuille compacte", f"{code}/feuille?compacte=1")
        get(f"{system} partie", f"{code}/partie")
        get(f"{system} partie (liste)", f"{editor}/partie")
        get(f"{system} campagne (gang)", f"{editor}/campagne")
        if system == "dcsystem":
            history_pages(client, get, editor)
        if system == "necrowarzone":
            campaign_pages(client, get, found, editor)
        client.post("/listes", data={"system": system})
    get("mes listes", "/listes")
    carnet_file_pages(client, get, found)
    made = client.post("/listes", data={"system": SYSTEMS[0]}).headers["location"]
    client.post(f"/listes/{made.removeprefix('/r/')}/supprimer", data={"confirm": "oui"})
    get("mes listes (une liste supprimée, « Annuler »)", "/listes")
    get("listes supprimées", "/listes/supprimees")
    other = client.post("/api/v1/carnets").json()["url"].removeprefix("http://testserver")
    get("ouvrir un autre carnet", other)
    book_pages(client, get)
    import_pages(client, found)
    get("dcsystem chances", "/dcsystem/chances")
    get("dcsystem chances (erreur)", "/dcsystem/chances?rouges=abc&blancs=99", 422)
    score = client.post("/dcsystem/score", data={"format": "200", "kills_1": "2", "kills_2": "-1"})
    found.append(Page("dcsystem score (erreur)", "", score.text))
    return found


def import_pages(client: TestClient, found: list[Page]) -> None:
    """« Importer une liste »: the form, a preview (lines recognised, a detail line, one
    « non reconnu » with its choices, what the text could not carry), a refusal. Read
    from an address of their own: the tour's creations spend its address's budget (an
    import read counts as a creation, app/security/routes.py)."""
    found.append(Page("importer", "/listes/importer", client.get("/listes/importer").text))
    client = TestClient(
        client.app,
        client=("192.0.2.30", 50000),
        headers=dict(client.headers),
        follow_redirects=False,
    )
    typed = "Ma liste\n3 x Jafa\nTeal'c - 90 pts\n1 x Goold\nRenfort :\n2 x Jaffa\n"
    preview = client.post("/listes/importer", data={"texte": typed, "systeme": ""})
    assert preview.status_code == 200, preview.text
    found.append(Page("importer (aperçu)", "", preview.text))
    export = "Test\nInfinity N2 — construction d'armée\nTotal : SWC 0/6 | points 10/300\n\n"
    export += "GROUPE 1 :\n1 x Marine (Fusil) - 10 pts\n"
    export += "    MOV 10-5 CC 13 TR 11 PH 10 VOL 12 BL 1 B 1 - SWC 0\n"
    rebuilt = client.post("/listes/importer", data={"texte": export, "systeme": ""})
    assert rebuilt.status_code == 200, rebuilt.text
    found.append(Page("importer (aperçu, soldat recréé)", "", rebuilt.text))
    document = '{"system": "toy", "name": "Jouets", "entries": [{"unit": "tambour"}]}'
    whole = client.post("/listes/importer", data={"texte": document, "systeme": ""})
    assert whole.status_code == 200, whole.text
    found.append(Page("importer (aperçu d'un JSON)", "", whole.text))
    refused = client.post("/listes/importer", data={"texte": "bonjour", "systeme": ""})
    assert refused.status_code == 422, refused.text
    found.append(Page("importer (refus)", "", refused.text))


def book_pages(client: TestClient, get: Any) -> None:
    """Army books: the carnet's books, each system's example, a copy of it and its
    published page; a list drawn from the DCSystem copy, its share, and its editor once the
    book dropped a unit (the update view)."""
    get("mes livres d'armée (vide)", "/livres")
    for system in SYSTEMS:
        get(f"{system} livre d'exemple", f"/livres/exemples/{system}")
        copied = client.post(f"/livres/exemples/{system}/dupliquer")
        assert copied.status_code == 303, copied.text
        book = copied.headers["location"]
        get(f"{system} livre d'armée", book)
        published = client.post(f"{book}/publier").headers["location"]
        get(f"{system} livre publié", published)
        if system == "dcsystem":
            added = client.post(f"{book}/unites/jaffa/ajouter", data={"roster": ""})
            editor = added.headers["location"]
            client.post(f"{book}/unites/marine/ajouter", data={"roster": editor[3:]})
            get("liste tirée d'un livre", editor)
            data = changed(form_fields(client.get(editor).text, "editor"))
            shared = client.post(editor, data={**data, "action": ["share"]})
            assert shared.status_code == 303, shared.text
            get("partage d'une liste tirée d'un livre", shared.headers["location"])
            client.post(f"{book}/unites/marine/retirer")
            get("livre d'armée (unité retirée, « Annuler »)", book)
            client.post(f"{book}/publier")
            client.post(f"{book}/supprimer", data={"confirm": "oui"})
            get("mes livres d'armée (livre supprimé, « Annuler »)", "/livres")
            client.post(f"{book}/restaurer")
            get("liste tirée d'un livre (nouvelle version)", editor)
            get(
                "partage d'une liste tirée d'un livre (nouvelle version)",
                shared.headers["location"],
            )
    get("mes livres d'armée", "/livres")


def carnet_file_pages(client: TestClient, get: Any, found: list[Page]) -> None:
    """« Restaurer un carnet »: its form, a bad file refused, a file restored (its report)."""
    get("restaurer un carnet", "/listes/carnet/restauration")
    file = client.get("/listes/carnet/fichier")
    assert file.status_code == 200, file.text
    bad = client.post(
        "/listes/carnet/restauration", files={"fichier": ("c.json", b"{", "text/plain")}
    )
    assert bad.status_code == 422, bad.text
    found.append(Page("restaurer un carnet (erreur)", "", bad.text))
    done = client.post(
        "/listes/carnet/restauration",
        files={"fichier": ("c.json", file.content, "application/json")},
    )
    assert done.status_code == 200, done.text
    found.append(Page("carnet restauré", "", done.text))


def history_pages(client: TestClient, get: Any, editor: str) -> None:
    """A list's history after a save: its versions, one of them, two compared."""
    data = changed(form_fields(client.get(editor).text, "editor"), name="Équipe SG-1")
    saved = client.post(editor, data={**data, "action": ["save"]})
    assert saved.status_code == 200, saved.text
    get("historique d'une liste", f"{editor}/historique")
    get("version d'une liste", f"{editor}/historique/1")
    get("deux versions comparées", f"{editor}/historique/comparer?de=1&a=2")


def campaign_pages(client: TestClient, get: Any, found: list[Page], editor: str) -> None:
    """A campaign, its join page, a battle recorded (and one refused) on a gang, its
    public page."""
    made = client.post("/api/v1/campaigns", json={"system": "necrowarzone", "name": "Ruche"})
    campaign = made.json()
    get("créer une campagne", "/campagnes/nouvelle?systeme=necrowarzone")
    refused = client.post("/campagnes/nouvelle", data={"system": "necrowarzone", "name": " "})
    assert refused.status_code == 422
    found.append(Page("créer une campagne (erreur)", "", refused.text))
    created = client.post("/campagnes/nouvelle", data={"system": "bastos", "name": "Le Far West"})
    assert created.status_code == 201, created.text
    found.append(Page("campagne créée", "", created.text))
    get("campagne (vide)", f"/c/{campaign['id']}")
    join = f"/c/{campaign['id']}/rejoindre?code={campaign['join_code']}"
    get("rejoindre une campagne", join)
    listed = editor.removeprefix("/r/")
    joined = client.post(join.split("?")[0], data={"code": campaign["join_code"], "roster": listed})
    assert joined.status_code == 303, joined.text
    page = client.get(f"{editor}/campagne").text
    version = page.split('name="version" value="')[1].split('"')[0]
    battle = {"version": version, "date": "2026-12-01", "result": "win", "f0_xp": "12"}
    done = client.post(f"{editor}/campagne", data={**battle, "campaign": campaign["id"]})
    assert done.status_code == 303, done.text
    bad = client.post(f"{editor}/campagne", data={**battle, "f0_xp": "beaucoup"})
    assert bad.status_code == 422
    found.append(Page("campagne (gang, erreur)", "", bad.text))
    get("campagne (gang, une bataille)", f"{editor}/campagne")
    get("campagne (classement)", f"/c/{campaign['id']}")
    share = client.get(f"{editor}/campagne").text.split('href="/campagne/rapport/')[1][:8]
    get("campagne (page publique du gang)", f"/campagne/gang/{share}")


class _Fields(HTMLParser):
    """The fields a browser would send with the form `form_id` as the page shows it."""

    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.depth = 0
        self.fields: list[tuple[str, str]] = []
        self.select: str | None = None
        self.option: tuple[str, bool] | None = None
        self.first_option: str | None = None
        self.chosen = False
        self.textarea: str | None = None
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag == "form":
            if a.get("id") == self.form_id or self.depth:
                self.depth += 1
            return
        if not self.depth:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            if kind in ("submit", "button", "image", "reset", "file"):
                return
            self.fields.append((name, a.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select" and name:
            self.select, self.first_option, self.chosen = name, None, False
        elif tag == "option" and self.select is not None:
            value = a.get("value", "")
            if self.first_option is None:
                self.first_option = value
            if "selected" in a:
                self.fields.append((self.select, value))
                self.chosen = True
        elif tag == "textarea" and name:
            self.textarea, self.text = name, ""

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self.depth:
            self.depth -= 1
        elif tag == "select" and self.select is not None:
            if not self.chosen and self.first_option is not None:
                self.fields.append((self.select, self.first_option))
            self.select = None
        elif tag == "textarea" and self.textarea is not None:
            self.fields.append((self.textarea, self.text))
            self.textarea = None


def form_fields(page: str, form_id: str) -> list[tuple[str, str]]:
    parser = _Fields(form_id)
    parser.feed(page)
    return parser.fields


def changed(fields: list[tuple[str, str]], **values: str) -> dict[str, list[str]]:
    """`fields` with the named ones given another value (the form as a player changed it),
    as httpx posts a form (`p_AC` names the field `p-AC`)."""
    data: dict[str, list[str]] = {}
    for name, value in fields:
        data.setdefault(name, []).append(values.get(name.replace("-", "_"), value))
    return data
