/* In-page layout probe of the browser check (test/browser/screenshots.browser.ts), plain JavaScript run as written:
   one function expression, (root, lang) => problems (strings). It guards classes of faults, not instances:
   - cut text: an element with text of its own whose content is wider than its box while its overflow hides it
     (hidden, clip, or an ellipsis), or a text element that sticks out of `root`;
   - a lone word: a badge, a button or a table header whose text wraps and leaves one word (or number) alone on a line;
   - an icon-only control (a button or link with an icon and no text) without a label (aria-label and a tooltip);
   - the other language: in French, English function words; in English, French ones (visible text only). */
(root, lang) => {
  const problems = [];
  const shown = (el) => {
    const cs = getComputedStyle(el);
    if (cs.display === "none" || cs.visibility === "hidden") return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && !el.closest("[aria-hidden=true], template, details:not([open]) > :not(summary)");
  };
  const ownText = (el) =>
    [...el.childNodes]
      .filter((n) => n.nodeType === 3)
      .map((n) => n.textContent)
      .join("")
      .replace(/\s+/g, " ")
      .trim();
  const name = (el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : ""}`;
  const rootBox = root.getBoundingClientRect();
  for (const el of root.querySelectorAll("*")) {
    if (!shown(el)) continue;
    const text = ownText(el);
    const cs = getComputedStyle(el);
    if (text) {
      const hides = ["hidden", "clip"].includes(cs.overflowX) || cs.textOverflow === "ellipsis";
      if (hides && el.scrollWidth > el.clientWidth + 1) problems.push(`cut text: ${name(el)} "${text.slice(0, 40)}"`);
      const r = el.getBoundingClientRect();
      if (r.right > rootBox.right + 1 || r.left < rootBox.left - 1) problems.push(`outside its window: ${name(el)} "${text.slice(0, 40)}"`);
    }
    // Lone word: the text of a badge, a button or a header cell wrapping with one word on a line of its own.
    if (el.matches(".aventure-badge, button, th") && text.includes(" ")) {
      const tops = new Map();
      for (const node of [...el.childNodes].filter((n) => n.nodeType === 3)) {
        const re = /\S+/g;
        let m;
        while ((m = re.exec(node.textContent))) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const rect = range.getClientRects()[0];
          if (!rect) continue;
          const top = Math.round(rect.top);
          tops.set(top, (tops.get(top) ?? 0) + 1);
        }
      }
      if (tops.size > 1 && [...tops.values()].some((n) => n === 1)) problems.push(`a word alone on a line: ${name(el)} "${text}"`);
    }
    // Icon-only controls have a label.
    if (el.matches("button, a, [role=button]") && !el.textContent.trim() && el.querySelector("i[class*=fa-]")) {
      const label = el.getAttribute("aria-label") || el.querySelector("[aria-label]")?.getAttribute("aria-label");
      const tip = el.getAttribute("data-tooltip") || el.getAttribute("title");
      if (!label || !tip) problems.push(`icon-only control without a label (aria-label and tooltip): ${name(el)}`);
    }
  }
  // The other language, in what is shown.
  const visible = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement && shown(n.parentElement) && !n.parentElement.closest("code, .aventure-path, textarea, .window-header")) visible.push(n.textContent);
  }
  for (const el of root.querySelectorAll("input[type=text], textarea")) if (shown(el) && !el.closest(".aventure-path")) visible.push(el.value);
  const all = " " + visible.join(" ").replace(/\s+/g, " ") + " ";
  const other =
    lang === "fr"
      ? /\s(the|and|with|without|your|you|this|that|is|are|of|to|when|from|per)(?=\s)/gi
      : /\s(le|la|les|des|du|une|avec|sans|vous|votre|est|sont|pour|dans|sur|aux)(?=\s)/gi;
  const found = [...new Set([...all.matchAll(other)].map((m) => m[1].toLowerCase()))];
  if (found.length) problems.push(`words of the other language (${found.join(", ")}): "${all.trim().slice(0, 120)}…"`);
  return problems;
}
