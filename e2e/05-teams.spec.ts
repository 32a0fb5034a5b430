import { randomBytes } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { nav, shot, signIn, VIEWPORT } from "./helpers";

// Teams in the dashboard, with two browsers: the operator (01 made it; its plan is unlimited) invites a viewer
// from the Team page; the invitee signs up from the link while sign-up is closed, finds the owner's database
// under "Shared with me", can only read it (the API refuses its writes too), is promoted to editor and creates
// a database in the owner's workspace, which the owner's list shows with the invitee as its creator.

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
const INVITEE = { email: `teammate-${randomBytes(4).toString("hex")}@example.com`, password: "teammate password 1" };
const VIEWER_NOTE = "Viewers can read only.";

test.use({ viewport: VIEWPORT });

const json = async <T>(page: Page, path: string) => {
  const res = await page.request.get(path);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
};

type Person = { id: number; email: string };
type DatabaseView = { instance: string; owner: Person; creator: Person; role: string };

test("an owner invites a viewer, who signs up from the link, reads only, is promoted and creates a database there", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, OWNER);
  const owner = await json<Person & { usage: { invitees: number } }>(page, "/api/v1/account");
  let instance = "";
  let inviteUrl = "";

  await test.step("the owner creates a database with a row (API)", async () => {
    const created = await page.request.post("/api/v1/databases", {
      data: { name: "Team shop", tables: [{ name: "products", columns: [{ name: "title", type: "varchar" }] }] },
    });
    expect(created.status(), await created.text()).toBe(201);
    instance = ((await created.json()) as DatabaseView).instance;
    const key = (await json<{ key: string; database: string | null }[]>(page, "/api/v1/keys")).find((k) => k.database === null)!;
    const row = await page.request.post(`/v1/${instance}/products`, { headers: { "x-api-key": key.key }, data: { title: "Hammer" } });
    expect(row.status(), await row.text()).toBe(201);
  });

  await test.step("Team: the owner invites a viewer and gets a link to copy", async () => {
    await nav(page).getByRole("link", { name: "Team", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Team", exact: true })).toBeVisible();
    await expect(page.getByRole("progressbar", { name: "Invitees" })).toHaveCount(0);
    await expect(page.getByText(`${owner.usage.invitees} · unlimited`)).toBeVisible();
    await expect(page.getByTestId("allowed-roles")).toHaveText("viewer, editor, admin");
    await expect(page.locator(`tr[data-member="${OWNER.email}"]`)).toContainText("owner");

    const form = page.getByRole("form", { name: "Invite someone" });
    await expect(form.getByLabel("Role")).toHaveValue("viewer");
    await form.getByLabel("Email (optional)").fill(INVITEE.email);
    await expect(form.getByLabel("Expires in (hours)")).toHaveValue("168");
    await expect(form.getByLabel("Max uses")).toHaveValue("1");
    await form.getByRole("button", { name: "Create invite link" }).click();

    const created = page.getByRole("status", { name: "New invite link" });
    const origin = new URL(page.url()).origin;
    await expect(created.getByTestId("invite-url")).toHaveText(new RegExp(`^${origin}/invite/inv_[A-Za-z0-9_-]{20,}$`));
    await expect(created).toContainText(`Not emailed to ${INVITEE.email}`);
    await expect(created.getByRole("button", { name: "Copy link to clipboard" })).toBeVisible();
    inviteUrl = (await created.getByTestId("invite-url").textContent())!;

    const [listed] = await json<{ url: string; role: string; status: string; email: string }[]>(page, "/api/v1/team/invites");
    expect(listed).toMatchObject({ url: inviteUrl, role: "viewer", status: "pending", email: INVITEE.email });
    const row = page.getByRole("table", { name: "Invites" }).locator("tbody tr").first();
    await expect(row).toContainText("pending");
    await expect(row).toContainText("0 / 1");
    await expect(row.getByRole("button", { name: "Revoke" })).toBeVisible();
    await expect(page.getByText(`${owner.usage.invitees + 1} · unlimited`)).toBeVisible();
    await shot(page, "teams-01-invite-link");
  });

  const inviteeContext = await browser.newContext({ viewport: VIEWPORT });
  const invitee = await inviteeContext.newPage();

  await test.step("the invitee opens the link while sign-up is closed and signs up from it", async () => {
    expect(await json<{ signup: string }>(invitee, "/api/session/status")).toMatchObject({ signup: "operator" });
    await invitee.goto(inviteUrl);
    await expect(invitee.getByRole("heading", { name: `Join ${OWNER.email}’s workspace` })).toBeVisible();
    await expect(invitee.getByRole("region", { name: "Invite" })).toContainText(`${OWNER.email} invites you to their workspace as viewer`);
    const token = new URL(inviteUrl).pathname.split("/").pop()!;
    await expect(invitee.getByRole("link", { name: "sign in" })).toHaveAttribute("href", `/login?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`);
    await shot(invitee, "teams-02-invite-page");
    await invitee.getByLabel("Email").fill(INVITEE.email);
    await invitee.getByLabel("Password", { exact: true }).fill(INVITEE.password);
    await invitee.getByLabel("Confirm password").fill(INVITEE.password);
    await invitee.getByRole("button", { name: "Create account and join" }).click();
    await expect(invitee).toHaveURL(/\/databases\?scope=shared$/);
  });

  await test.step("Shared with me shows the owner's database with its owner, creator and the invitee's role", async () => {
    await expect(invitee.getByRole("link", { name: "Shared with me", exact: true }).first()).toHaveAttribute("aria-current", "page");
    const card = invitee.locator(`a[data-database="${instance}"]`);
    await expect(card).toContainText("Team shop");
    await expect(card).toContainText(`Owner ${OWNER.email}`);
    await expect(card).toContainText(`Created by ${OWNER.email}`);
    await expect(card).toContainText("Viewer");
    const shared = await json<DatabaseView[]>(invitee, "/api/v1/databases?scope=shared");
    await expect(invitee.getByRole("list", { name: "Shared with me" }).getByRole("listitem")).toHaveCount(shared.length);
    expect(shared.every((db) => db.owner.id === owner.id && db.role === "viewer")).toBe(true);
    await shot(invitee, "teams-03-shared-with-me");
  });

  await test.step("the creator filter offers the creators present and filters through the URL", async () => {
    const creator = invitee.getByLabel("Created by");
    await expect(creator.locator("option")).toHaveText(["Anyone", OWNER.email]);
    await expect(invitee.getByLabel("Workspace of").locator("option")).toHaveText(["Anyone", OWNER.email]);
    await creator.selectOption(String(owner.id));
    await expect(invitee).toHaveURL(new RegExp(`scope=shared&creator=${owner.id}$`));
    await expect(invitee.locator(`a[data-database="${instance}"]`)).toBeVisible();
    await expect(invitee.getByRole("button", { name: "Clear filters" })).toBeVisible();
  });

  await test.step("a viewer's controls are disabled, with the reason", async () => {
    await invitee.locator(`a[data-database="${instance}"]`).click();
    await expect(invitee).toHaveURL(new RegExp(`/databases/${instance}/schema$`));
    await expect(invitee.getByRole("note", { name: "Your role" })).toContainText(`You are a viewer in ${OWNER.email}’s workspace`);
    for (const name of ["Add table", "Add columns", "Rename", "Delete table"]) {
      const button = invitee.getByRole("button", { name, exact: true });
      await expect(button).toBeDisabled();
      await expect(button).toHaveAttribute("title", VIEWER_NOTE);
    }
    await expect(invitee.getByRole("button", { name: "Edit column title" })).toHaveCount(0);

    await invitee.getByRole("link", { name: "Data", exact: true }).click();
    const grid = invitee.getByRole("table", { name: "Records of products" });
    await expect(grid.locator("tbody tr")).toHaveCount(1);
    await expect(grid).toContainText("Hammer");
    await expect(invitee.getByRole("button", { name: "Add record" })).toBeDisabled();
    await expect(invitee.getByRole("button", { name: "Add record" })).toHaveAttribute("title", VIEWER_NOTE);
    await expect(grid.getByRole("button", { name: "Actions for record 1" })).toHaveCount(0);
    await shot(invitee, "teams-04-viewer-read-only");

    await invitee.getByRole("link", { name: "Auth", exact: true }).click();
    await expect(invitee.getByLabel("Enable database auth")).toBeDisabled();
    await expect(invitee.getByRole("button", { name: "Save auth settings" })).toBeDisabled();
    await expect(invitee.getByRole("button", { name: "Save policies" })).toBeDisabled();
    await expect(invitee.getByRole("button", { name: "Save policies" })).toHaveAttribute("title", "Only the owner and admins can change this.");

    await invitee.getByRole("link", { name: "Settings", exact: true }).click();
    await expect(invitee.getByRole("button", { name: "Delete database…" })).toBeDisabled();
    await expect(invitee.getByRole("button", { name: "Rename" })).toBeDisabled();
  });

  await test.step("the API refuses a viewer's writes, through its session and through its key", async () => {
    const table = await invitee.request.post(`/api/v1/databases/${instance}/tables`, { data: { name: "intruders" } });
    expect(table.status()).toBe(403);
    expect(await table.json()).toEqual({ error: "forbidden", message: "Your role on this database does not include database:write." });
    const key = (await json<{ key: string; database: string | null }[]>(invitee, "/api/v1/keys")).find((k) => k.database === null)!;
    const row = await invitee.request.post(`/v1/${instance}/products`, { headers: { "x-api-key": key.key }, data: { title: "Saw" } });
    expect(row.status(), await row.text()).toBe(403);
    const read = await invitee.request.get(`/v1/${instance}/products`, { headers: { "x-api-key": key.key } });
    expect(((await read.json()) as { title: string }[]).map((r) => r.title)).toEqual(["Hammer"]);
    expect((await json<{ tables: { name: string }[] }>(page, `/api/v1/databases/${instance}`)).tables.map((t) => t.name)).toEqual(["products"]);
  });

  await test.step("a viewer is offered only its own workspace for a new database", async () => {
    await invitee.goto("/databases/new");
    await expect(invitee.getByLabel("Workspace").locator("option")).toHaveText(["My workspace"]);
  });

  await test.step("the owner promotes the invitee to editor on the Team page", async () => {
    await page.reload();
    const row = page.locator(`tr[data-member="${INVITEE.email}"]`);
    const role = row.getByLabel(`Role of ${INVITEE.email}`);
    await expect(role).toHaveValue("viewer");
    await role.selectOption("editor");
    // Nothing changes until the owner confirms.
    const confirm = page.getByRole("dialog", { name: `Make ${INVITEE.email} an editor?` });
    await expect(confirm).toBeVisible();
    expect((await json<{ account: Person; role: string }[]>(page, "/api/v1/team/members")).find((m) => m.account.email === INVITEE.email)?.role).toBe("viewer");
    await confirm.getByRole("button", { name: "Make editor" }).click();
    await expect(role).toBeEnabled();
    await expect(role).toHaveValue("editor");
    const members = await json<{ account: Person; role: string }[]>(page, "/api/v1/team/members");
    expect(members.find((m) => m.account.email === INVITEE.email)?.role).toBe("editor");
    await expect(page.getByRole("table", { name: "Invites" }).locator("tbody tr").first()).toContainText("1 / 1");
    await shot(page, "teams-05-promoted-to-editor");
  });

  await test.step("the used link now says so", async () => {
    await page.goto(inviteUrl);
    await expect(page.getByRole("heading", { name: "This invite no longer works" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText(`It was already used. Ask ${OWNER.email} for a new link.`);
    await shot(page, "teams-06-invite-used");
  });

  let created = "";
  await test.step("after a reload the editor may change the schema and creates a database in the owner's workspace", async () => {
    await invitee.goto(`/databases/${instance}/schema`);
    await expect(invitee.getByRole("note", { name: "Your role" })).toContainText(`You are an editor in ${OWNER.email}’s workspace`);
    await expect(invitee.getByRole("button", { name: "Add column" })).toBeEnabled();
    await invitee.getByRole("link", { name: "Settings", exact: true }).click();
    await expect(invitee.getByRole("button", { name: "Delete database…" })).toBeDisabled();
    await expect(invitee.getByRole("button", { name: "Delete database…" })).toHaveAttribute("title", "Only the owner and admins can change this.");

    await nav(invitee).getByRole("link", { name: "New database" }).click();
    const workspace = invitee.getByLabel("Workspace");
    await expect(workspace.locator("option")).toHaveText(["My workspace", `${OWNER.email}’s workspace (editor)`]);
    await workspace.selectOption(String(owner.id));
    await invitee.getByLabel("Database name").fill("Invitee notes");
    await expect(invitee.getByText(`Owned by ${OWNER.email} and counted on their plan`)).toBeVisible();
    await shot(invitee, "teams-07-new-database-in-workspace");
    await invitee.getByRole("button", { name: "Create empty database" }).click();
    await expect(invitee).toHaveURL(/\/databases\/invitee_notes_[a-z0-9]{6}\/schema$/);
    created = /\/databases\/([^/]+)\//.exec(invitee.url())![1];
    const db = await json<DatabaseView>(invitee, `/api/v1/databases/${created}`);
    expect(db).toMatchObject({ owner: { id: owner.id, email: OWNER.email }, creator: { email: INVITEE.email }, role: "editor" });
    expect(await json<DatabaseView[]>(invitee, "/api/v1/databases?scope=mine")).toEqual([]);
  });

  await test.step("the invitee's Team page lists the workspace it belongs to, whose members it sees read-only", async () => {
    await nav(invitee).getByRole("link", { name: "Team", exact: true }).click();
    const row = invitee.locator(`tr[data-workspace="${OWNER.email}"]`);
    await expect(row).toContainText("editor");
    await row.getByRole("link", { name: "Members" }).click();
    await expect(invitee).toHaveURL(new RegExp(`/settings/team\\?workspace=${owner.id}$`));
    await expect(invitee.getByText(`The workspace of ${OWNER.email}, where you are an editor.`)).toBeVisible();
    await expect(invitee.locator(`tr[data-member="${INVITEE.email}"]`)).toContainText("editor");
    await expect(invitee.getByLabel(`Role of ${INVITEE.email}`)).toHaveCount(0);
    await expect(invitee.getByRole("button", { name: /^Remove/ })).toHaveCount(0);
    await expect(invitee.getByRole("form", { name: "Invite someone" })).toHaveCount(0);
    await shot(invitee, "teams-08-member-team-page");
  });

  await test.step("the owner's list shows it with the invitee as creator, and filters by creator", async () => {
    await page.goto("/databases");
    const card = page.locator(`a[data-database="${created}"]`);
    await expect(card).toContainText("Invitee notes");
    await expect(card).toContainText(`Created by ${INVITEE.email}`);
    await expect(page.locator(`a[data-database="${instance}"]`)).not.toContainText("Created by");
    await shot(page, "teams-09-owner-list");
    await page.getByLabel("Created by").selectOption({ label: INVITEE.email });
    await expect(page).toHaveURL(/\/databases\?creator=\d+$/);
    await expect(page.getByRole("list", { name: "My databases" }).getByRole("listitem")).toHaveCount(1);
    await expect(card).toBeVisible();
    await expect(page.locator(`a[data-database="${instance}"]`)).toHaveCount(0);
  });

  await inviteeContext.close();
});

test("an existing account signs in from an invite link, comes back to it and accepts", async ({ page, browser }) => {
  const member = { email: `accepter-${randomBytes(4).toString("hex")}@example.com`, password: "accepter password 1" };
  await signIn(page, OWNER);
  const made = await page.request.post("/api/v1/accounts", { data: member });
  expect(made.status(), await made.text()).toBe(201);
  const invite = await page.request.post("/api/v1/team/invites", { data: { role: "editor" } });
  expect(invite.status(), await invite.text()).toBe(201);
  const { url, token } = (await invite.json()) as { url: string; token: string };

  const context = await browser.newContext({ viewport: VIEWPORT });
  const other = await context.newPage();
  await other.goto(url);
  await other.getByRole("link", { name: "sign in" }).click();
  await expect(other).toHaveURL(/\/login\?callbackUrl=/);
  await expect(other.getByRole("link", { name: "Create one from the invite" })).toHaveAttribute("href", `/invite/${token}`);
  await other.getByLabel("Email").fill(member.email);
  await other.getByLabel("Password").fill(member.password);
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other).toHaveURL(new RegExp(`/invite/${token}$`));
  await expect(other.getByText("You are signed in as")).toHaveText(`You are signed in as${member.email}`);
  await shot(other, "teams-10-accept-signed-in");
  await other.getByRole("button", { name: "Accept invite" }).click();
  await expect(other).toHaveURL(/\/databases\?scope=shared$/);
  const shared = await json<DatabaseView[]>(other, "/api/v1/databases?scope=shared");
  expect(shared.length).toBeGreaterThan(0);
  await expect(other.getByRole("list", { name: "Shared with me" }).getByRole("listitem")).toHaveCount(shared.length);
  await expect(other.getByRole("list", { name: "Shared with me" }).getByRole("listitem").first()).toContainText("Editor");
  const workspaces = await json<{ owner: Person; role: string }[]>(other, "/api/v1/team/workspaces");
  expect(workspaces).toMatchObject([{ owner: { email: OWNER.email }, role: "editor" }]);
  await context.close();
});
