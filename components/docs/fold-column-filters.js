// A Swagger UI plugin, for the dashboard's API Docs tab and the public docs page alike: a list operation's
// parameters show the data API's own ones (`_limit`, `_sort`, `_or`, `Prefer`, …) and fold the per-column filters
// (every other query parameter, ~60 on a wide table) behind one toggle. The OpenAPI document keeps every filter
// documented; only the form folds them, and a filter filled in before folding is still sent.
// Plain JavaScript, never compiled: the public page's route serves this very file (lib/docs/serve-docs.ts), and
// the dashboard imports it with its types from fold-column-filters.d.ts.

// Swagger UI's plugin API is untyped: its values are Immutable.js maps.
const isColumnFilter = (p) => p.get("in") === "query" && !String(p.get("name")).startsWith("_");

export function foldColumnFilters() {
  return {
    wrapComponents: {
      parameters: (Original, system) =>
        function FoldedParameters(props) {
          const React = system.React;
          const [open, setOpen] = React.useState(false);
          const count = props.parameters.filter(isColumnFilter).size;
          if (count === 0) return React.createElement(Original, props);
          const parameters = open ? props.parameters : props.parameters.filter((p) => !isColumnFilter(p));
          const label = open ? `Hide the ${count} column filters` : `Show the ${count} column filters`;
          const toggle = React.createElement("button", { type: "button", className: "btn tabula-filter-toggle", "aria-expanded": open, onClick: () => setOpen(!open) }, label);
          const hint = open ? null : React.createElement("span", { className: "tabula-filter-hint" }, " (one per column and operator, e.g. price_lt)");
          return React.createElement("div", null, React.createElement(Original, { ...props, parameters }), React.createElement("div", { className: "tabula-filter-fold" }, toggle, hint));
        },
    },
  };
}
