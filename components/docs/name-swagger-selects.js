// Swagger UI renders its server picker, a parameter's enum select and the examples picker without a name
// (axe: select-name), and re-renders them at will: this names each one as it appears. Plain JavaScript, never
// compiled, for the dashboard's API Docs tab and the public docs page alike (served by lib/docs/serve-docs.ts);
// its types are in name-swagger-selects.d.ts.

/** Names every select Swagger UI renders under `root`, now and on each re-render; returns the observer. */
export function nameSwaggerSelects(root) {
  const observer = new MutationObserver(() => {
    for (const select of root.querySelectorAll("select:not([aria-label])")) {
      const param = select.closest("tr[data-param-name]")?.getAttribute("data-param-name");
      select.setAttribute("aria-label", select.id === "servers" ? "Server" : param ? `Value of ${param}` : "Example");
    }
  });
  observer.observe(root, { childList: true, subtree: true });
  return observer;
}
