// Mistakes the generated types must catch: each line below has to be a type error, or the check fails
// (`@ts-expect-error` on a line that compiles is itself an error).
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

const client = createClient<paths>({ baseUrl: "http://127.0.0.1:1" });

export const mistakes = async () => {
  // @ts-expect-error a value outside the dropdown's options
  await client.POST("/books", { body: { title: "x", isbn: "i", genre: "poetry" } });
  // @ts-expect-error a string in an int column
  await client.POST("/books", { body: { title: "x", isbn: "i", genre: "fiction", pages: "many" } });
  // @ts-expect-error a required column missing
  await client.POST("/books", { body: { isbn: "i", genre: "fiction" } });
  // @ts-expect-error a path the API does not have
  await client.GET("/publishers");
  // @ts-expect-error the bulk path takes an array, not one record
  await client.POST("/books/_bulk", { body: { title: "x", isbn: "i", genre: "fiction" } });
  const one = await client.POST("/authors", { body: { name: "x" } });
  // @ts-expect-error a single create answers one record, not an array
  one.data?.map((a) => a.id);
  const list = await client.GET("/books", {});
  // @ts-expect-error a list answers records whose title is a string
  const n: number | undefined = list.data?.[0]?.title;
  return n;
};
