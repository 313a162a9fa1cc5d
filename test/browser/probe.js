/* In-page probe of the browser check (test/browser/screenshots.browser.ts), kept as plain JavaScript so it runs in
   Chromium exactly as written (page.evaluate of this file's text): one function expression, (root) => report.

   Text contrast (WCAG 2.x, 1.4.3): every element under `root` with visible text of its own (a non-empty text
   node child; the value of a text input; the selected option of a select) is measured: its computed `color`
   against its effective background, found by walking up the ancestors and compositing their `background-color`
   (with alpha, and the elements' `opacity`) until an opaque one. A gradient counts as each of its colour stops
   (the worst one is kept); an image (url()) counts only if the element also has an opaque background-color
   (otherwise the pair is reported as unmeasurable, which fails). Minimum 4.5:1, or 3:1 for large text (at least
   24px, or 18.66px and bold). Exempt, as WCAG says: disabled controls and what is inside them; and what is not
   shown (display, visibility, zero size, hidden) or hidden from assistive technology (aria-hidden).

   Icons (Font Awesome `<i class="fa-…">`): each must draw a glyph (a `::before` content, in a loaded Font
   Awesome face) and, unless aria-hidden or disabled, meet the non-text minimum of 3:1 (WCAG 1.4.11). */
(root) => {
  const parse = (c) => {
    const m = /^rgba?\(([^)]+)\)$/.exec(c.trim());
    if (!m) return null;
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const over = (top, bottom) => {
    const a = top.a;
    return { r: top.r * a + bottom.r * (1 - a), g: top.g * a + bottom.g * (1 - a), b: top.b * a + bottom.b * (1 - a), a: 1 };
  };
  const lin = (v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const lum = (c) => 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  const ratio = (x, y) => {
    const a = lum(x), b = lum(y);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  };
  const hex = (c) => "#" + [c.r, c.g, c.b].map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
  const stops = (image) => (image.match(/rgba?\([^)]*\)/g) ?? []).map(parse).filter(Boolean);

  /** The layers an element paints behind its text: background colour, then gradient stops or an image. */
  function layers(el) {
    const cs = getComputedStyle(el);
    const color = parse(cs.backgroundColor) ?? { r: 0, g: 0, b: 0, a: 0 };
    const op = Number(cs.opacity);
    const image = cs.backgroundImage;
    return { color, image: image && image !== "none" ? image : null, opacity: Number.isFinite(op) ? op : 1 };
  }

  /** Candidate effective backgrounds (several for gradients), or an error string. */
  function backgrounds(el) {
    const chain = [];
    for (let e = el; e; e = e.parentElement) {
      const l = layers(e);
      chain.push(l);
      if (l.color.a >= 1) break;
    }
    const last = chain[chain.length - 1];
    let base;
    if (last.image && /url\(/.test(last.image) && last.color.a < 1) return "an image background without an opaque background-color";
    if (last.color.a >= 1) {
      base = [last.color];
      if (last.image && /gradient/.test(last.image)) base = stops(last.image).map((s) => over(s, last.color));
    } else base = [{ r: 255, g: 255, b: 255, a: 1 }]; // the page's canvas
    for (let i = chain.length - 2; i >= 0; i--) {
      const l = chain[i];
      if (l.image && /url\(/.test(l.image)) return "an image background without an opaque background-color";
      let next = base.map((b) => (l.color.a > 0 ? over(l.color, b) : b));
      if (l.image && /gradient/.test(l.image)) next = next.flatMap((b) => stops(l.image).map((s) => over(s, b)));
      base = next;
    }
    return base;
  }

  function opacityOf(el) {
    let o = 1;
    for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity) || 0;
    return o;
  }

  function describe(el) {
    const parts = [];
    for (let e = el; e && e !== root.parentElement && parts.length < 3; e = e.parentElement) {
      const cls = [...e.classList].filter((c) => !/^(themed|theme-)/.test(c)).slice(0, 2);
      parts.unshift(e.tagName.toLowerCase() + cls.map((c) => "." + c).join(""));
    }
    return parts.join(" > ");
  }

  const shown = (el) => {
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const exempt = (el) => !!el.closest("[aria-hidden='true'], :disabled, [inert]");

  const texts = [];
  const failures = [];
  const icons = [];

  function measure(el, text, kind) {
    const cs = getComputedStyle(el);
    const size = parseFloat(cs.fontSize);
    const bold = Number(cs.fontWeight) >= 700;
    const large = kind === "icon" ? true : size >= 24 || (size >= 18.66 && bold);
    const min = kind === "icon" ? 3 : large ? 3 : 4.5;
    const fg0 = parse(cs.color);
    const bgs = backgrounds(el);
    const entry = { el: describe(el), text: text.slice(0, 60), min, kind };
    if (typeof bgs === "string" || !fg0) {
      failures.push({ ...entry, ratio: 0, why: typeof bgs === "string" ? bgs : `unreadable color ${cs.color}` });
      return;
    }
    const fg = { ...fg0, a: fg0.a * opacityOf(el) };
    let worst = null;
    for (const bg of bgs) {
      const r = ratio(over(fg, bg), bg);
      if (!worst || r < worst.ratio) worst = { ratio: r, fg: hex(over(fg, bg)), bg: hex(bg) };
    }
    const row = { ...entry, ...worst };
    (kind === "icon" ? icons : texts).push(row);
    if (worst.ratio < min) failures.push(row);
  }

  for (const el of [root, ...root.querySelectorAll("*")]) {
    if (["SCRIPT", "STYLE", "OPTION", "OPTGROUP", "TEMPLATE"].includes(el.tagName)) continue;
    const isIcon = el.tagName === "I" && [...el.classList].some((c) => c.startsWith("fa-"));
    // An icon without a glyph has no size: only its CSS visibility counts here.
    if (isIcon ? !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) : !shown(el)) continue;
    if (isIcon) {
      const before = getComputedStyle(el, "::before");
      const content = before.content;
      const family = before.fontFamily;
      const weight = before.fontWeight;
      const drawn = content && content !== "none" && content !== "normal" && content !== '""' && /Font Awesome/i.test(family);
      const loaded = drawn && document.fonts.check(`${weight} 16px ${family.split(",")[0]}`);
      if (!drawn || !loaded) {
        failures.push({ el: describe(el), text: el.className, min: 0, ratio: 0, kind: "icon", why: drawn ? `font ${family} ${weight} not loaded` : "no glyph (not a Font Awesome Free icon?)" });
      } else if (!exempt(el)) measure(el, el.className, "icon");
      continue;
    }
    if (exempt(el)) continue;
    let own = "";
    if (el.tagName === "INPUT" && ["text", "number", ""].includes(el.type)) own = el.value;
    else if (el.tagName === "SELECT") own = el.selectedOptions[0]?.textContent ?? "";
    else for (const n of el.childNodes) if (n.nodeType === Node.TEXT_NODE) own += n.textContent;
    own = own.replace(/\s+/g, " ").trim();
    if (!own) continue;
    measure(el, own, "text");
  }
  return { texts, icons, failures };
}
