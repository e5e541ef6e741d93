/**
 * Seeded randomness for fault rules: each rule owns one generator, so a run with the same rules
 * and the same requests fails the same requests. Never Math.random().
 */

/** A source of floats in [0, 1). */
export type Random = () => number;

/** mulberry32: a small, fast 32-bit PRNG; the same seed yields the same sequence on every run. */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a string: the default seed of a rule without one is derived from its name. */
export function seedFromName(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** A uniform integer in [min, max]. */
export function uniformInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
