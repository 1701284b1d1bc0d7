// Issue 28's contract test, TypeScript side: openapi-typescript's output of the live
// /openapi.json (default options: schema.d.ts, written at test time) types a small flow as a
// program would write it. `tsc --strict` checks it; each @ts-expect-error line is a body the
// document must refuse (a free object would let it through, and tsc would then fail on the
// unused directive). With its default options openapi-typescript makes a field that has a
// default required (defaultNonNullable), request bodies included: the bodies below write
// `army`, `description`, `text`, `count`, `xp` and `cause` although the server fills them in.
import type { components, paths } from "./schema";

type Schemas = components["schemas"];
type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;
type Problem = Schemas["Problem"];

type RosterBody = Json<paths["/api/v1/rosters"]["post"]["requestBody"]>;
type RosterCreated = Json<paths["/api/v1/rosters"]["post"]["responses"][201]>;
type Replace = paths["/api/v1/rosters/{roster_id}"]["put"];
type RosterOut = Json<Replace["responses"][200]>;
type BookBody = Json<paths["/api/v1/books"]["post"]["requestBody"]>;
type BookShare = Json<paths["/api/v1/book-shares/{code}"]["get"]["responses"][200]>;
type ShareExport = Json<paths["/s/{code}.json"]["get"]["responses"][200]>;
type Share = Json<paths["/api/v1/shares/{code}"]["get"]["responses"][200]>;
type Battle = Json<paths["/api/v1/rosters/{roster_id}/battles"]["post"]["requestBody"]>;
type CarnetFile = Json<paths["/api/v1/carnets/{carnet_id}/export"]["get"]["responses"][200]>;
type CarnetImport = Json<paths["/api/v1/carnets/{carnet_id}/import"]["post"]["requestBody"]>;

const sheet: RosterBody = {
  system: "dcsystem",
  name: "Équipe SG",
  points_limit: 200,
  entries: [
    { unit: "jaffa", count: 2 },
    { custom: { level: 2, items: ["arme_tir_3", "arme_cc_1"] }, name: "Marine", count: 1 },
  ],
};

const book: BookBody = {
  system: "dcsystem",
  name: "Marines de Kessel",
  army: "Kessel",
  description: "",
  units: [
    { id: "marine", name: "Marine", text: "", definition: { level: 1, items: ["arme_tir_1"] } },
  ],
};

const refusedBook: BookBody = {
  system: "dcsystem",
  name: "Marines de Kessel",
  army: "",
  description: "",
  units: [
    // @ts-expect-error: a definition is the system's unit, not any object
    { id: "x", name: "X", text: "", definition: { level: 9, nonsense: true } },
  ],
};

const battle: Battle = {
  date: "2026-12-01",
  opponent: "Les Goliaths",
  scenario: "",
  notes: "",
  result: "win",
  fighters: [{ entry: 0, xp: 5, changes: [{ stat: "CT", by: 1, cause: "Vétéran" }] }],
  // @ts-expect-error: a score is one of the systems' score bodies
  score: { anything: true },
};

// A carnet file (issue 30) holds its lists as create_roster takes them.
const filed = { name: "Équipe SG", system: "dcsystem", document: sheet, created_at: null, updated_at: null };
const file: CarnetImport = {
  format: "caserne-carnet",
  format_version: 1,
  exported_at: "2026-12-01T10:00:00Z",
  rosters: [filed],
  books: [],
  gangs: [],
  campaigns: [],
};

const refusedFile: CarnetImport = {
  ...file,
  rosters: [
    // @ts-expect-error: a list's document is a roster document, not any object
    { ...filed, document: { system: "dcsystem", name: "X", entries: [], nonsense: true } },
  ],
};

// The file export_carnet answers is the body import_carnet takes, as it is.
export function sendBack(exported: CarnetFile): CarnetImport {
  return exported;
}

async function call<T>(url: string, init: RequestInit): Promise<T | Problem> {
  const answer = await fetch(url, init);
  return (await answer.json()) as T | Problem;
}

function isProblem<T extends object>(body: T | Problem): body is Problem {
  return "status" in body && "title" in body && "detail" in body;
}

export async function flow(base: string): Promise<string[]> {
  const steps: string[] = [];
  const json = { "Content-Type": "application/json" };
  const made = await call<RosterCreated>(`${base}/api/v1/rosters`, {
    method: "POST",
    headers: json,
    body: JSON.stringify(sheet),
  });
  if (isProblem(made)) throw new Error(made.errors?.[0]?.code ?? made.detail);
  steps.push(`create_roster ${made.id} v${made.version}`);
  // If-Match is the operation's own header parameter, typed.
  const header: Replace["parameters"]["header"] = { "if-match": `"${made.version}"` };
  const replaced = await call<RosterOut>(`${base}/api/v1/rosters/${made.id}`, {
    method: "PUT",
    headers: { ...json, ...header, Authorization: `Bearer ${made.edit_token}` },
    body: JSON.stringify({ ...sheet, name: "Équipe SG-1" }),
  });
  if (isProblem(replaced)) {
    if (replaced.errors?.[0]?.code === "version_stale") steps.push("stale: read again");
    return steps;
  }
  const roster = replaced.roster;
  if (roster.system === "dcsystem") {
    // Narrowed by `system`: the entries are DCSystem's, `count` typed in each branch.
    const counts: number[] = (roster.entries ?? []).map((entry) => entry.count ?? 1);
    steps.push(`replace_roster: ${counts.join(", ")}`);
  }
  const created = await call<Json<paths["/api/v1/books"]["post"]["responses"][201]>>(
    `${base}/api/v1/books`,
    { method: "POST", headers: json, body: JSON.stringify(book) },
  );
  if (!isProblem(created) && created.book.system === "dcsystem") {
    const definition = created.book.units?.[0]?.definition;
    steps.push(`create_book: level ${definition?.level}`);
  }
  const shared: BookShare | undefined = undefined;
  if (shared !== undefined && (shared as BookShare).system === "infinity") {
    steps.push("an Infinity book's units are troopers");
  }
  const exported: ShareExport | undefined = undefined as Share | undefined;
  steps.push(String(exported === undefined));
  void refusedBook;
  void battle;
  void refusedFile;
  return steps;
}
