// How the page's modules load: a browser asks for a module's imports as soon as it has
// the module, and opens up to six connections when more files wait; the server holds
// 20 HTTP connections per address (server/guard.py).  With every module asked for at
// once, four browsers behind one address were refused files.  app.js loads its
// imports, then its import()s in steps (one ``await`` each), and no wave of a step may
// ask for more than four new files.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const WEB = join(dirname(fileURLToPath(import.meta.url)), "../../src/unokit/web");

function imports(file) {
  const src = readFileSync(join(WEB, file), "utf8");
  const at = (p) => normalize(join(dirname(file), p));
  const statics = [...src.matchAll(/^(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"|^import\s+"(\.[^"]+)"/gm)].map((m) => at(m[1] || m[2]));
  // each ``await`` of import()s is a step: its files are asked for together
  const steps = src.split(/\bawait\b/).slice(1).map((part) => [...part.split(";")[0].matchAll(/import\("(\.[^"]+)"\)/g)].map((m) => at(m[1]))).filter((x) => x.length);
  return { statics, steps };
}

/** The waves of files asked for together, from ``start`` (its static imports). */
function waves(start, seen) {
  const out = [];
  let wave = [...new Set(start)].filter((f) => !seen.has(f));
  wave.forEach((f) => seen.add(f));
  while (wave.length) {
    out.push(wave);
    const next = [];
    for (const f of wave) for (const i of imports(f).statics) if (!seen.has(i)) { seen.add(i); next.push(i); }
    wave = next;
  }
  return out;
}

test("the page asks for at most four new modules at a time", () => {
  const seen = new Set(["app.js"]);
  const app = imports("app.js");
  const all = [...waves(app.statics, seen), ...app.steps.flatMap((step) => waves(step, seen))];
  assert.ok(app.steps.length >= 2, "app.js loads the views in steps");
  for (const w of all) assert.ok(w.length <= 4, `${w.length} modules asked for at once: ${w.join(", ")}`);
  // and everything the page uses is loaded by these steps
  for (const f of ["render/table.js", "render/side.js", "render/summary.js", "render/rules.js", "render/lobby.js", "render/replaybar.js", "replay.js", "forms.js", "store.js", "dom.js"])
    assert.ok(seen.has(f), f);
});
