/**
 * A set of field paths, as structured-merge-diff's fieldpath.Set: a tree whose nodes are keyed
 * by path elements written as in FieldsV1 (`f:name`, `k:{"name":"app"}`, `v:"x"`, `i:0`); a node
 * is a member (the path itself is in the set) and/or has children. Set operations are not
 * recursive over members (removing `.a` keeps `.a.b`), as in fieldpath.Set. Pure.
 */
import { comparePathElements, pathElementString } from './path-element';

type Obj = Record<string, any>;

export class FieldSet {
  member = false;
  readonly children = new Map<string, FieldSet>();

  /** The node for `key`, created when absent. */
  child(key: string): FieldSet {
    let c = this.children.get(key);
    if (!c) this.children.set(key, (c = new FieldSet()));
    return c;
  }

  /** Adds the path (a list of FieldsV1 keys) as a member. */
  insert(path: readonly string[]): void {
    let n: FieldSet = this;
    for (const key of path) n = n.child(key);
    n.member = true;
  }

  has(path: readonly string[]): boolean {
    let n: FieldSet | undefined = this;
    for (const key of path) if (!(n = n.children.get(key))) return false;
    return n.member;
  }

  isEmpty(): boolean {
    if (this.member) return false;
    for (const c of this.children.values()) if (!c.isEmpty()) return false;
    return true;
  }

  /** The set of paths below the element `key`, relative to it (empty when none). */
  withPrefix(key: string): FieldSet {
    return this.children.get(key) ?? EMPTY;
  }

  union(other: FieldSet): FieldSet {
    const out = this.copy();
    out.addAll(other);
    return out;
  }

  /** Adds every path of `other` to this set, in place. */
  addAll(other: FieldSet): void {
    if (other.member) this.member = true;
    for (const [k, c] of other.children) this.child(k).addAll(c);
  }

  /** Paths of this set that `other` lacks (members only; children of a removed member stay). */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && !other.member;
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      const d = o ? c.difference(o) : c.copy();
      if (!d.isEmpty()) out.children.set(k, d);
    }
    return out;
  }

  /** Paths of this set that are not `other`'s members nor below one of them. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && !other.member;
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      if (o?.member) continue;
      const d = o ? c.recursiveDifference(o) : c.copy();
      if (!d.isEmpty()) out.children.set(k, d);
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && other.member;
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      if (!o) continue;
      const i = c.intersection(o);
      if (!i.isEmpty()) out.children.set(k, i);
    }
    return out;
  }

  equals(other: FieldSet): boolean {
    if (this.member !== other.member) return false;
    const mine = [...this.children].filter(([, c]) => !c.isEmpty());
    const theirs = [...other.children].filter(([, c]) => !c.isEmpty());
    if (mine.length !== theirs.length) return false;
    return mine.every(([k, c]) => {
      const o = other.children.get(k);
      return o !== undefined && c.equals(o);
    });
  }

  copy(): FieldSet {
    const out = new FieldSet();
    out.member = this.member;
    for (const [k, c] of this.children) out.children.set(k, c.copy());
    return out;
  }

  /**
   * Every member path in fieldpath.Set.Iterate's order: at each level the members (sorted),
   * then each child's paths (sorted by element).
   */
  paths(prefix: string[] = []): string[][] {
    const out: string[][] = [];
    const keys = [...this.children.keys()].sort(comparePathElements);
    for (const k of keys) if (this.children.get(k)!.member) out.push([...prefix, k]);
    for (const k of keys) {
      const c = this.children.get(k)!;
      const below = [...c.children.values()].some((g) => !g.isEmpty());
      if (below) out.push(...c.paths([...prefix, k]));
    }
    return out;
  }

  /** FieldsV1 JSON: children in path-element order, `".":{}` first where a member has children. */
  toFieldsV1(): Obj {
    return this.encode() ?? {};
  }

  /** FieldsV1 of this node, or undefined when it is empty. */
  private encode(): Obj | undefined {
    const keys = [...this.children.keys()].sort(comparePathElements);
    let out: Obj | undefined;
    for (const k of keys) {
      const sub = this.children.get(k)!.encode();
      if (sub === undefined) continue;
      if (!out) out = this.member ? { '.': {} } : {};
      out[k] = sub;
    }
    return out ?? (this.member ? {} : undefined);
  }

  /** The set FieldsV1 JSON describes: `{}` is a member leaf, `".":{}` makes its parent a member. */
  static fromFieldsV1(fields: unknown): FieldSet {
    const set = new FieldSet();
    if (fields && typeof fields === 'object' && !Array.isArray(fields)) fill(set, fields as Obj);
    return set;
  }
}

const EMPTY = new FieldSet();

function fill(set: FieldSet, fields: Obj): void {
  for (const [k, v] of Object.entries(fields)) {
    if (k === '.') {
      set.member = true;
      continue;
    }
    const c = set.child(k);
    const sub = v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {};
    if (Object.keys(sub).length === 0) c.member = true;
    else fill(c, sub);
  }
}

/** A path as fieldpath.Path.String prints it (`.data.k1`, `.spec.containers[name="app"].image`). */
export function pathString(path: readonly string[]): string {
  return path.map(pathElementString).join('');
}
