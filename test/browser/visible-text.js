/* In-page reader of the browser check (test/browser/screenshots.browser.ts), plain JavaScript run as written
   (page.evaluate of this file's text): one function expression, ([root, exempt]) => string[].

   The text a user can see under `root`: every text node whose element is rendered (checkVisibility: not
   display:none, not visibility:hidden, not in a closed <details> body or a hidden palette), and the words an
   element shows on hover or reads aloud (title, data-tooltip, aria-label, placeholder) of every rendered element,
   and every option of a rendered select (read when it opens).
   A borrowed rule is exempt (docs/rules.md §0: it brings its game's words with its label): the text of a row, a
   button, a list item or a paragraph that holds one of the `exempt` labels ("Rôle'n Play's rule"…) is left out. */
([root, exempt]) => {
  const UNIT = ".form-group, .aventure-hud-action, li, p, label, button, tr";
  const labelled = (unit) => {
    const all = unit.textContent + " " + [...unit.querySelectorAll("[aria-label], [data-tooltip], [title]")].map((e) => e.getAttribute("aria-label") + " " + e.getAttribute("data-tooltip") + " " + e.getAttribute("title")).join(" ");
    return exempt.some((label) => all.includes(label));
  };
  // Exempt when any enclosing unit (a hint's paragraph inside a labelled row...) holds a label.
  const isExempt = (el) => {
    for (let unit = el.closest(UNIT); unit && root.contains(unit); unit = unit.parentElement ? unit.parentElement.closest(UNIT) : null) {
      if (labelled(unit)) return true;
    }
    return false;
  };
  const shown = (el) => el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true });
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !n.textContent.trim() || !shown(el) || isExempt(el)) continue;
    out.push(n.textContent.trim());
  }
  for (const el of [root, ...root.querySelectorAll("*")]) {
    if (!shown(el) || isExempt(el)) continue;
    for (const a of ["title", "data-tooltip", "aria-label", "placeholder"]) {
      const v = el.getAttribute(a);
      if (v && v.trim()) out.push(v.trim());
    }
    if (el.tagName === "INPUT" && el.type === "text" && el.value) out.push(el.value);
    // A select's options are read when it opens.
    if (el.tagName === "SELECT") for (const o of el.options) if (o.textContent.trim()) out.push(o.textContent.trim());
  }
  return out;
}
