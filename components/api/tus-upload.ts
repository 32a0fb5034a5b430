// Resumable uploads from the dashboard: a file over TUS_THRESHOLD_BYTES goes to `/v1/{instance}/_uploads` (tus 1.0)
// in chunks, each through XMLHttpRequest for its progress; a chunk that fails is resumed from the offset the server
// holds (HEAD), a few times, rather than sending the file again. The write then attaches it: `{"<col>": {"upload": id}}`.

/** Files larger than this go through tus; smaller ones in one multipart write. */
export const TUS_THRESHOLD_BYTES = 8 * 1024 * 1024;
const CHUNK_BYTES = 4 * 1024 * 1024;
const RETRIES = 3;

/** The threshold in force: the browser tests lower it (`window.__tabulaTusThresholdBytes`) to upload a few MB. */
export const tusThreshold = () => (globalThis as { __tabulaTusThresholdBytes?: number }).__tabulaTusThresholdBytes ?? TUS_THRESHOLD_BYTES;

const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

const tusHeaders = (key: string) => ({ "tus-resumable": "1.0.0", "x-api-key": key });

const patchChunk = (url: string, key: string, offset: number, chunk: Blob, onSent: (bytes: number) => void) =>
  new Promise<number>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PATCH", url);
    for (const [name, value] of Object.entries(tusHeaders(key))) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader("upload-offset", String(offset));
    xhr.setRequestHeader("content-type", "application/offset+octet-stream");
    xhr.upload.onprogress = (e) => onSent(e.loaded);
    xhr.onerror = () => reject(new Error("The upload failed: the connection was lost."));
    xhr.onload = () => (xhr.status === 204 ? resolve(Number(xhr.getResponseHeader("upload-offset"))) : reject(new Error(`The upload was refused (${xhr.status}): ${xhr.responseText.slice(0, 200)}`)));
    xhr.send(chunk);
  });

/** Uploads `file`; `onProgress` gets the bytes the server holds so far. Answers the upload's id. */
export const tusUpload = async (instance: string, key: string, file: File, onProgress: (bytes: number) => void): Promise<string> => {
  const made = await fetch(`/v1/${instance}/_uploads`, {
    method: "POST",
    headers: { ...tusHeaders(key), "upload-length": String(file.size), "upload-metadata": `filename ${base64(file.name)},filetype ${base64(file.type || "application/octet-stream")}` },
  });
  if (made.status !== 201) throw new Error(`The upload could not start (${made.status}): ${(await made.text()).slice(0, 200)}`);
  const url = made.headers.get("location")!;
  let offset = 0;
  let failures = 0;
  while (offset < file.size) {
    try {
      offset = await patchChunk(url, key, offset, file.slice(offset, offset + CHUNK_BYTES), (sent) => onProgress(offset + sent));
      onProgress(offset);
    } catch (err) {
      if (++failures > RETRIES) throw err;
      const head = await fetch(url, { method: "HEAD", headers: tusHeaders(key) });
      if (!head.ok) throw err;
      offset = Number(head.headers.get("upload-offset"));
    }
  }
  return new URL(url, location.href).pathname.split("/").pop()!;
};

/**
 * The files of a write that go through tus, or undefined when the write goes as one multipart body: when some file
 * is over the threshold and every part is a new file for a column of its own (`<col>` or `<col>+`: the JSON write
 * attaches one upload per column; a removal part `<col>-` has no JSON form beside an upload).
 */
export const resumableParts = (form: FormData): { column: string; file: File }[] | undefined => {
  const parts = [...form.entries()];
  if (!parts.every(([name, value]) => value instanceof File && !name.endsWith("-"))) return undefined;
  const columns = parts.map(([name]) => name.replace(/\+$/, ""));
  if (new Set(columns).size !== columns.length) return undefined;
  if (!parts.some(([, value]) => (value as File).size > tusThreshold())) return undefined;
  return parts.map(([, value], i) => ({ column: columns[i]!, file: value as File }));
};
