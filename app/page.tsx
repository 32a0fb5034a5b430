const Home = () => (
  <main className="mx-auto max-w-2xl px-6 py-16">
    <h1 className="text-3xl font-semibold">Tabula</h1>
    <p className="mt-3 text-slate-600">
      Your backend is running. Create an account with <code className="rounded bg-slate-200 px-1">npx tabula create-account</code>,
      then use the management API at <code className="rounded bg-slate-200 px-1">/api/v1</code> (described at{" "}
      <a className="text-indigo-600 underline" href="/api/v1/openapi.json">/api/v1/openapi.json</a>) and your data API at{" "}
      <code className="rounded bg-slate-200 px-1">/v1/&lt;database&gt;</code>.
    </p>
  </main>
);

export default Home;
