// The dashboard's sign-in body read once, in-process with real Requests: each field once is read (the email
// normalised as the password check reads it), a repeated field is a 400 naming it, form-encoded and JSON alike.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/errors";
import { readSignInForm } from "../../lib/auth/read-sign-in-form";

const post = (type: string, body: string) => new Request("http://localhost/api/auth/callback/credentials", { method: "POST", headers: { "content-type": type }, body });
const FORM = "application/x-www-form-urlencoded";
const JSON_TYPE = "application/json";

describe("reading a sign-in form", () => {
  it.each([
    ["a form", post(FORM, "csrfToken=t&email=%20Ann%40Example.COM%20&password=pw&json=true"), { email: "ann@example.com", password: "pw" }],
    ["a form with a charset", post(`${FORM}; charset=UTF-8`, "email=ann%40example.com&password=pw"), { email: "ann@example.com", password: "pw" }],
    ["a JSON body", post(JSON_TYPE, '{"csrfToken":"t","email":"Ann@Example.com","password":"pw"}'), { email: "ann@example.com", password: "pw" }],
    ["a JSON body whose nested objects repeat a name", post(JSON_TYPE, '{"a":{"email":"x"},"b":[{"email":"y"}],"email":"ann@example.com","password":"p\\"w"}'), { email: "ann@example.com", password: 'p"w' }],
    ["a JSON body whose email is not a string", post(JSON_TYPE, '{"email":["ann@example.com"],"password":"pw"}'), { email: "", password: "pw" }],
    ["a body of another type", post("text/plain", "email=ann@example.com&password=pw"), { email: "", password: "" }],
    ["broken JSON", post(JSON_TYPE, '{"email":"ann@example.com",'), { email: "", password: "" }],
  ])("reads %s", async (_name, request, expected) => {
    expect(await readSignInForm(request)).toEqual(expected);
  });

  it.each([
    ["a form's email", post(FORM, "email=decoy%40x.io&email=victim%40example.com&password=pw"), "email"],
    ["a form's password, empty the first time", post(FORM, "email=victim%40example.com&password=&password=pw"), "password"],
    ["a form's csrfToken", post(FORM, "csrfToken=a&email=victim%40example.com&password=pw&csrfToken=b"), "csrfToken"],
    ["a JSON body's email", post(JSON_TYPE, '{"email":"decoy@x.io","password":"pw","email":"victim@example.com"}'), "email"],
    ["a JSON body's email spelled with an escape", post(JSON_TYPE, '{"email":"decoy@x.io","\\u0065mail":"victim@example.com"}'), "email"],
  ])("refuses %s given twice with a 400 naming it", async (_name, request, field) => {
    const err = await readSignInForm(request).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const { code, status, message, errors } = err as ApiError;
    expect({ code, status, message, errors }).toEqual({
      code: "bad_request",
      status: 400,
      message: `The sign-in field "${field}" is given more than once; send each field once.`,
      errors: [{ field, code: "repeated", message: `"${field}" is given more than once.` }],
    });
  });
});
