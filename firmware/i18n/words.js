// The words of the board's pages (the board's own page and the browser player), from the
// catalog of one language as the board serves it (catalogs.py ScriptCatalog): a message is
// one whole sentence with named places ({side}), and one the catalog lacks is shown as
// written. Elements marked data-i18n hold a message as their text; data-i18n-attr names
// their attributes that are messages too (Babel extracts both: firmware/i18n/extract.py).
(function () {
  "use strict";
  let catalog = { language: "en", plural: "n != 1", messages: {}, languages: { en: "English" } };
  let pluralIndex = (n) => Number(n !== 1);

  function use(found) {
    catalog = found;
    // The plural rule is the catalog's own C expression in n (digits, n and operators only).
    if (/^[n0-9\s!=<>&|?:%()]+$/.test(catalog.plural)) {
      pluralIndex = new Function("n", `return Number(${catalog.plural});`);
    }
  }
  function _(message) {
    const found = catalog.messages[message];
    return typeof found === "string" ? found : message;
  }
  function ngettext(one, many, n) {
    const found = catalog.messages[one];
    if (Array.isArray(found)) return found[Math.min(pluralIndex(n), found.length - 1)] || one;
    return n === 1 ? one : many;
  }
  function fmt(text, places) {
    return text.replace(/\{(\w+)\}/g, (all, name) => (name in places ? String(places[name]) : all));
  }
  function translatePage() {
    for (const node of document.querySelectorAll("[data-i18n]")) {
      if (!node.dataset.message) node.dataset.message = node.textContent.split(/\s+/).join(" ").trim();
      node.textContent = _(node.dataset.message);
    }
    for (const node of document.querySelectorAll("[data-i18n-attr]")) {
      for (const name of node.dataset.i18nAttr.split(" ")) {
        const key = "message" + name.replace(/(^|-)(\w)/g, (all, dash, c) => c.toUpperCase());
        if (!node.dataset[key]) node.dataset[key] = node.getAttribute(name) || "";
        node.setAttribute(name, _(node.dataset[key]));
      }
    }
    document.documentElement.lang = catalog.language;
  }
  // The first of the browser's languages that is one of `codes`, else "en".
  function preferred(codes) {
    for (const tag of navigator.languages || [navigator.language || "en"]) {
      const code = tag.split("-")[0].toLowerCase();
      if (codes.includes(code)) return code;
    }
    return "en";
  }
  window.NavakankariWords = { use, _, ngettext, fmt, translatePage, preferred,
    get catalog() { return catalog; } };
})();
