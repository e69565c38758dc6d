// float64 references for CHLO's special functions, written for the tests (not the plugin's methods where
// another one is at hand): lgamma by Lanczos's series, erf by its positive-term series and erfc's
// continued fraction, erf_inv by bisection on those, bessel_i1e by the trapezoid rule on its integral,
// digamma and zeta by recurrence and asymptotic series.

const PI = Math.PI;

// Lanczos (g = 7, nine terms): Γ(x + 1) = √(2π) (x + g + 1/2)^{x + 1/2} e^{-(x + g + 1/2)} A(x).
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

export function lgamma(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (!Number.isFinite(x)) return Infinity;
  if (x <= 0 && Number.isInteger(x)) return Infinity;
  if (x < 0.5) return Math.log(PI / Math.abs(Math.sin(PI * (x - Math.round(x))))) - lgamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

export function digamma(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x <= 0 && Number.isInteger(x)) return NaN;
  if (x < 0) return digamma(1 - x) - PI / Math.tan(PI * (x - Math.round(x)));
  let acc = 0;
  while (x < 20) acc -= 1 / x++;
  const z = 1 / (x * x);
  return acc + Math.log(x) - 0.5 / x - z * (1 / 12 - z * (1 / 120 - z * (1 / 252 - z * (1 / 240 - z / 132))));
}

/** erf(x) = (2/√π) e^{-x²} Σ 2^n x^{2n+1} / (1·3·…·(2n+1)): every term positive. */
function erfSeries(x: number): number {
  let term = x;
  let sum = x;
  for (let n = 1; term > sum * 1e-18; n++) {
    term *= (2 * x * x) / (2 * n + 1);
    sum += term;
  }
  return (2 / Math.sqrt(PI)) * expMinusSquare(x) * sum;
}

/** e^{-x²} with x² split into an exact head and a small tail (x·x rounds, and e^{-60} magnifies that 60-fold). */
function expMinusSquare(x: number): number {
  const head = Math.round(x * 2 ** 20) / 2 ** 20; // 26 significant bits at most: head² is exact
  return Math.exp(-head * head) * Math.exp(-(x - head) * (x + head));
}

/** erfc(x) for x > 0 by its continued fraction, evaluated backwards from a fixed depth. */
function erfcFraction(x: number): number {
  let f = x;
  for (let k = 4000; k >= 1; k--) f = x + k / 2 / f;
  return expMinusSquare(x) / Math.sqrt(PI) / f;
}

export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const a = Math.abs(x);
  const r = a < 2 ? erfSeries(a) : 1 - erfcFraction(a);
  return x < 0 ? -r : r;
}

export function erfc(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x === Infinity) return 0;
  if (x === -Infinity) return 2;
  if (x < 0) return 2 - erfc(-x);
  return x < 0.7 ? 1 - erfSeries(x) : erfcFraction(x);
}

/** The x with erf(x) = y, by bisection (on erfc above 0.5, where 1 - y is exact). */
export function erfInv(y: number): number {
  if (Number.isNaN(y) || Math.abs(y) > 1) return NaN;
  if (Math.abs(y) === 1) return y * Infinity;
  if (y === 0) return y;
  const a = Math.abs(y);
  const f = a > 0.5 ? (x: number) => 1 - a - erfc(x) : (x: number) => erf(x) - a;
  let lo = 0;
  let hi = 30;
  for (let i = 0; i < 200 && lo < hi; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (f(mid) < 0) lo = mid;
    else hi = mid;
  }
  const x = f(lo) === 0 || Math.abs(f(lo)) < Math.abs(f(hi)) ? lo : hi;
  return y < 0 ? -x : x;
}

/** e^{-|x|} I1(x) = sign(x) (1/π) ∫_0^π e^{|x|(cos t - 1)} cos t dt; the trapezoid rule on a whole period of a
 *  smooth periodic integrand converges geometrically. Below 1, the power series. */
export function besselI1e(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const a = Math.abs(x);
  const sign = x < 0 || Object.is(x, -0) ? -1 : 1;
  if (a === Infinity) return sign * 0;
  if (a < 1) {
    // small x: the integral cancels, so sum I1(a) = Σ (a/2)^{2k+1} / (k! (k+1)!) instead
    let term = a / 2;
    let sum = term;
    for (let k = 1; k < 30; k++) sum += term *= (a * a) / 4 / (k * (k + 1));
    return sign * sum * Math.exp(-a);
  }
  const n = 64 + Math.ceil(40 * Math.sqrt(a));
  let sum = 0;
  for (let i = 0; i <= n; i++) {
    const t = (PI * i) / n;
    sum += (i === 0 || i === n ? 0.5 : 1) * Math.exp(a * (Math.cos(t) - 1)) * Math.cos(t);
  }
  return (sign * sum) / n;
}

// B_{2j} / (2j)! for the Euler–Maclaurin tail.
const B2J = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510, 43867 / 798, -174611 / 330];
const FACT = [2, 24, 720, 40320, 3628800, 479001600, 87178291200, 20922789888000, 6402373705728000, 2432902008176640000];

/** Hurwitz ζ(s, q), with XLA's values at the edges (s < 1, poles, negative q with a fractional s). */
export function zeta(s: number, q: number): number {
  if (Number.isNaN(s) || Number.isNaN(q)) return NaN;
  if (s === 1) return Infinity;
  if (s < 1 || s === Infinity || q === Infinity) return NaN;
  if (q <= 0 && Number.isInteger(q)) return Infinity;
  if (q <= 0 && !Number.isInteger(s)) return NaN;
  const n = Math.max(0, Math.ceil(Math.max(25, Math.min(s, 100)) - q));
  let sum = 0;
  for (let k = 0; k < n; k++) sum += Math.pow(q + k, -s);
  const w = q + n;
  let tail = Math.pow(w, 1 - s) / (s - 1) + Math.pow(w, -s) / 2;
  let rising = s; // s (s+1) … (s+2j-2)
  for (let j = 0; j < B2J.length; j++) {
    tail += (B2J[j]! / FACT[j]!) * rising * Math.pow(w, -s - 2 * j - 1);
    rising *= (s + 2 * j + 1) * (s + 2 * j + 2);
  }
  return sum + tail;
}

export function polygamma(n: number, x: number): number {
  if (Number.isNaN(n) || Number.isNaN(x) || !Number.isInteger(n) || n < 0) return NaN;
  if (n === 0) return digamma(x);
  if (x === Infinity || (x <= 0 && Number.isInteger(x))) return NaN;
  let factorial = 1;
  for (let k = 2; k <= n; k++) factorial *= k;
  return (n % 2 === 1 ? 1 : -1) * factorial * zeta(n + 1, x);
}
