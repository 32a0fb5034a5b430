import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { expectAxeClean, shot, signInOrSetUp, THEMED_VIEWPORTS } from "./helpers";

// Files in the dashboard: a file column made in the schema editor (a bad thumb size answered beside its
// field), a PNG uploaded through the record form with its progress, its thumbnail in the grid, its download
// with the same bytes, and its removal; a big file through tus; and every file view (grid, record form with stored
// files, the schema editor's file options) at 1280 and 390 px, light and dark, axe clean.

type FileValue = { name: string; size: number; type: string; url: string };

const makeDatabase = async (page: Page) => {
  const made = await page.request.post("/api/v1/databases", { data: { name: "Files", tables: [{ name: "gallery", columns: [{ name: "title", type: "varchar" }] }] } });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: `files ${instance}`, database: instance } })).json()).key as string;
  return { instance, headers: { "x-api-key": key } };
};

test.use({ viewport: { width: 1280, height: 800 } });

test("a file column: made in the schema editor, uploaded, shown, downloaded and removed", async ({ page }) => {
  test.setTimeout(60_000);
  await signInOrSetUp(page);
  const { instance, headers } = await makeDatabase(page);
  const png = await sharp({ create: { width: 240, height: 160, channels: 3, background: { r: 220, g: 80, b: 40 } } }).png().toBuffer();
  const photoOf = async () => ((await (await page.request.get(`/v1/${instance}/gallery`, { headers })).json()) as { photo: FileValue | null }[])[0]!.photo;

  await test.step("schema editor: the file type and its options; a bad thumb size is answered beside its field", async () => {
    await page.goto(`/databases/${instance}/schema?table=gallery`);
    await page.getByRole("button", { name: "Add columns" }).click();
    const dialog = page.getByRole("dialog", { name: "Add columns to gallery" });
    await dialog.getByLabel("Name", { exact: true }).fill("photo");
    await dialog.getByLabel("Type", { exact: true }).selectOption("file");
    await dialog.getByLabel("Accept").fill("image/*");
    await dialog.getByLabel("Thumbnail sizes").fill("100by100");
    await dialog.getByRole("button", { name: "Add column" }).click();
    await expect(dialog.getByLabel("Thumbnail sizes")).toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByRole("alert").first()).toBeVisible();
    await shot(page, "22-files-column-error-1280");
    await dialog.getByLabel("Thumbnail sizes").fill("100x100");
    await dialog.getByRole("button", { name: "Add column" }).click();
    await expect(dialog).toBeHidden();
    const table = await (await page.request.get(`/api/v1/databases/${instance}/tables/gallery`)).json();
    expect((table.columns as { name: string }[]).find((c) => c.name === "photo")).toMatchObject({ type: "file", accept: ["image/*"], thumbs: ["100x100"] });
  });

  const grid = page.getByRole("table", { name: "Records of gallery" });
  await test.step("record form: the PNG uploads with a progress bar that completes; the grid shows its thumbnail", async () => {
    await page.goto(`/databases/${instance}/data?table=gallery`);
    await page.getByRole("button", { name: "Add record" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a record to gallery" });
    await dialog.getByLabel("title").fill("Sunset");
    await dialog.getByLabel("photo").setInputFiles({ name: "sunset.png", mimeType: "image/png", buffer: png });
    await expect(dialog.getByRole("list", { name: "Files to upload to photo" })).toContainText("sunset.png");
    await expect(dialog.getByRole("list", { name: "Files to upload to photo" }).locator("img")).toBeVisible();
    await shot(page, "22-files-form-1280");
    await dialog.getByRole("button", { name: "Add record" }).click();
    await expect(dialog.getByRole("progressbar", { name: "Upload progress" })).toHaveAttribute("aria-valuenow", "100");
    await expect(dialog).toBeHidden();
    const thumb = grid.getByTestId("file-thumb");
    await expect(thumb).toBeVisible();
    await expect(thumb).toHaveJSProperty("naturalWidth", 100);
    await expect(grid.getByRole("link", { name: /^sunset_[a-z0-9]+\.png$/ })).toBeVisible();
    await shot(page, "22-files-grid-1280");
    await expectAxeClean(page, "grid with a file cell");
  });

  await test.step("download: the API and the grid's link give the uploaded bytes", async () => {
    const photo = (await photoOf())!;
    expect(photo).toMatchObject({ type: "image/png", size: png.length });
    const got = await page.request.get(photo.url, { headers });
    expect(Buffer.compare(await got.body(), png)).toBe(0);
    const [download] = await Promise.all([page.waitForEvent("download"), grid.getByRole("link", { name: photo.name }).click()]);
    expect(download.suggestedFilename()).toBe(photo.name);
    const path = await download.path();
    expect(Buffer.compare(await (await import("node:fs/promises")).readFile(path), png)).toBe(0);
  });

  await test.step("remove the stored file at 390 px, dark", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => localStorage.setItem("tabula-theme", "dark"));
    await page.reload();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await grid.getByRole("button", { name: /^Actions for record \d+$/ }).click();
    await grid.getByRole("menuitem", { name: "Edit", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: /^Edit gallery #\d+$/ });
    const stored = dialog.getByRole("list", { name: "Stored files of photo" });
    await expect(stored.locator("img")).toBeVisible();
    await shot(page, "22-files-edit-390-dark");
    await expectAxeClean(page, "record form with a stored file, dark");
    await stored.getByRole("button", { name: /^Remove / }).click();
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(dialog).toBeHidden();
    expect(await photoOf()).toBeNull();
    await expect(grid.getByTestId("file-thumb")).toHaveCount(0);
    await shot(page, "22-files-removed-390-dark");
  });

  await test.step("a file dropped on the field's zone is chosen for upload", async () => {
    await grid.getByRole("button", { name: /^Actions for record \d+$/ }).click();
    await grid.getByRole("menuitem", { name: "Edit", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: /^Edit gallery #\d+$/ });
    const dropped = await page.evaluateHandle((bytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], "dropped.png", { type: "image/png" }));
      return data;
    }, [...png]);
    await dialog.getByTestId("drop-photo").dispatchEvent("drop", { dataTransfer: dropped });
    await expect(dialog.getByRole("list", { name: "Files to upload to photo" })).toContainText("dropped.png");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    expect(await photoOf()).toBeNull();
  });
});

test("a file over the resumable threshold goes through tus with its progress, and comes back byte for byte", async ({ page }) => {
  test.setTimeout(90_000);
  // 1 MB instead of 8 MB, so a 3 MB file takes the resumable path.
  await page.addInitScript(() => ((window as { __tabulaTusThresholdBytes?: number }).__tabulaTusThresholdBytes = 1024 * 1024));
  await signInOrSetUp(page);
  const { instance, headers } = await makeDatabase(page);
  const added = await page.request.post(`/api/v1/databases/${instance}/tables/gallery/columns`, { data: { name: "scan", type: "file" } });
  expect(added.status(), await added.text()).toBe(201);
  const bytes = Buffer.alloc(3 * 1024 * 1024 + 17, 0);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 251;
  const tusRequests: string[] = [];
  page.on("request", (r) => r.url().includes("/_uploads") && tusRequests.push(r.method()));

  await page.goto(`/databases/${instance}/data?table=gallery`);
  await page.getByRole("button", { name: "Add record" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a record to gallery" });
  await dialog.getByLabel("title").fill("Big scan");
  await dialog.getByLabel("scan").setInputFiles({ name: "scan.bin", mimeType: "application/octet-stream", buffer: bytes });
  await dialog.getByRole("button", { name: "Add record" }).click();
  await expect(dialog.getByRole("progressbar", { name: "Upload progress" })).toHaveAttribute("aria-valuenow", "100");
  await expect(dialog).toBeHidden();
  expect(tusRequests).toContain("POST");
  expect(tusRequests).toContain("PATCH");

  const rows = (await (await page.request.get(`/v1/${instance}/gallery`, { headers })).json()) as { title: string; scan: FileValue | null }[];
  const scan = rows.find((r) => r.title === "Big scan")!.scan!;
  expect(scan).toMatchObject({ size: bytes.length });
  const got = await page.request.get(scan.url, { headers });
  expect(Buffer.compare(await got.body(), bytes)).toBe(0);
});

test("every file view at 1280 and 390 px, light and dark, is axe clean", async ({ page }) => {
  test.setTimeout(120_000);
  await signInOrSetUp(page);
  const made = await page.request.post("/api/v1/databases", {
    data: { name: "Files looks", tables: [{ name: "gallery", columns: [{ name: "title", type: "varchar" }, { name: "photo", type: "file", accept: ["image/*"], thumbs: ["100x100"] }, { name: "papers", type: "file", multiple: true }] }] },
  });
  expect(made.status(), await made.text()).toBe(201);
  const instance = (await made.json()).instance as string;
  const key = (await (await page.request.post("/api/v1/keys", { data: { name: `looks ${instance}`, database: instance } })).json()).key as string;
  const png = await sharp({ create: { width: 240, height: 160, channels: 3, background: { r: 40, g: 120, b: 200 } } }).png().toBuffer();
  const row = await page.request.post(`/v1/${instance}/gallery`, {
    headers: { "x-api-key": key },
    multipart: {
      title: "Harbour",
      photo: { name: "harbour.png", mimeType: "image/png", buffer: png },
      papers: { name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n") },
    },
  });
  expect(row.status(), await row.text()).toBe(201);
  const id = (await row.json()).id as number;
  const grid = page.getByRole("table", { name: "Records of gallery" });

  for (const look of THEMED_VIEWPORTS) {
    const name = `${look.width}-${look.theme}`;
    await page.setViewportSize({ width: look.width, height: look.height });
    // The theme is chosen on the page already open (this origin), so the grid loads once, in that theme.
    await page.evaluate((theme) => localStorage.setItem("tabula-theme", theme), look.theme);
    await page.goto(`/databases/${instance}/data?table=gallery`);
    if (look.theme === "dark") await expect(page.locator("html")).toHaveClass(/dark/);
    else await expect(page.locator("html")).not.toHaveClass(/dark/);

    await expect(grid.getByTestId("file-thumb")).toBeVisible();
    await shot(page, `22-files-looks-grid-${name}`);
    await expectAxeClean(page, `grid with file cells, ${name}`);

    await grid.getByRole("button", { name: `Actions for record ${id}`, exact: true }).click();
    await grid.getByRole("menuitem", { name: "Edit", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `Edit gallery #${id}` });
    await expect(dialog.getByRole("list", { name: "Stored files of photo" }).locator("img")).toBeVisible();
    await expect(dialog.getByRole("list", { name: "Stored files of papers" })).toContainText("notes");
    await shot(page, `22-files-looks-form-${name}`);
    await expectAxeClean(page, `record form with stored files, ${name}`);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();

    await page.goto(`/databases/${instance}/schema?table=gallery`);
    await page.getByRole("button", { name: "Add columns" }).click();
    const add = page.getByRole("dialog", { name: "Add columns to gallery" });
    await add.getByLabel("Type", { exact: true }).selectOption("file");
    await expect(add.getByLabel("Thumbnail sizes")).toBeVisible();
    await shot(page, `22-files-looks-column-${name}`);
    await expectAxeClean(page, `file column options, ${name}`);
    await add.getByRole("button", { name: "Cancel" }).click();
  }
});
