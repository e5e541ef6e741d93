/**
 * The key order encoding/json gives a built-in object: struct fields in declaration order, Go
 * maps with their keys sorted, at every depth. The OpenAPI has no order, but the protobuf
 * descriptors do: generated.proto lists each message's fields in the Go struct's order, so the
 * descriptor's field list is the JSON key order. Keys the descriptor does not name keep their
 * order after the known ones; values with their own JSON form (FieldsV1, RawExtension, Time,
 * Quantity, IntOrString) are left as they are. Pure: the descriptors are handed in.
 */
import { isFrozenTree } from '../wire/frozen-tree';
import { PROTO, SPECIAL, type FieldDef, type ProtobufSchema } from '../wire/protobuf-schema';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** How to order one message's JSON object. */
interface MessageOrder {
  /** Each field's place in the message. */
  index: Map<string, number>;
  /** Per field with a message or map value: how to order the value. */
  children: Map<string, ValueOrder>;
}

type ValueOrder = { message: string } | { map: true; values: string | undefined };

const OPAQUE = new Set<string>(Object.values(SPECIAL));

export class GoStructOrder {
  private readonly orders = new Map<string, MessageOrder>();

  constructor(private readonly schema: ProtobufSchema) {}

  /**
   * `value` (a JSON object of `message`) with its keys in Go order, recursively: `value` itself
   * where it is in that order at every depth already, else a new object (which may share the
   * members that are in order).
   */
  order(value: Obj, message: string): Obj {
    // A frozen subtree (it never changes) found in order is not walked again.
    if (!isFrozenTree(value)) return this.ordered(value, message);
    if (this.inOrder.get(value) === message) return value;
    const out = this.ordered(value, message);
    if (out === value) this.inOrder.set(value, message);
    return out;
  }

  /** Frozen objects whose keys are in the order of the message they map to, at every depth. */
  private readonly inOrder = new WeakMap<object, string>();

  private ordered(value: Obj, message: string): Obj {
    const plan = this.plan(message);
    const keys = Object.keys(value);
    // Known fields by their place, then the others in their order: a sort only when the keys are not so already.
    let last = -1;
    let others = false;
    for (const k of keys) {
      const at = plan.index.get(k);
      if (at === undefined) others = true;
      else if (others || at < last) return this.reordered(value, keys, plan);
      else last = at;
    }
    let out: Obj | undefined;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const v = value[k];
      const c = this.child(v, plan.children.get(k));
      if (c !== v && !out) {
        out = {};
        for (let j = 0; j < i; j++) out[keys[j]!] = value[keys[j]!];
      }
      if (out) out[k] = c;
    }
    return out ?? value;
  }

  private reordered(value: Obj, keys: string[], plan: MessageOrder): Obj {
    // The known keys by their place (an insertion sort: an object has few keys, and most are in place already).
    const known: string[] = [];
    const places: number[] = [];
    let others = false;
    for (const k of keys) {
      const at = plan.index.get(k);
      if (at === undefined) {
        others = true;
        continue;
      }
      let j = known.length;
      for (; j > 0 && places[j - 1]! > at; j--) {
        known[j] = known[j - 1]!;
        places[j] = places[j - 1]!;
      }
      known[j] = k;
      places[j] = at;
    }
    const out: Obj = {};
    for (const k of known) out[k] = this.child(value[k], plan.children.get(k));
    if (others) for (const k of keys) if (!plan.index.has(k)) out[k] = value[k];
    return out;
  }

  /** A member's value in order: itself when it is already. */
  private child(value: unknown, how: ValueOrder | undefined): unknown {
    if (!how || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      if (!('message' in how)) return value;
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i];
        const c = isPlainObject(v) ? this.order(v, how.message) : v;
        if (c !== v && !out) out = value.slice(0, i);
        if (out) out.push(c);
      }
      return out ?? value;
    }
    const obj = value as Obj;
    if ('message' in how) return this.order(obj, how.message);
    const keys = Object.keys(obj);
    let sorted = true;
    for (let i = 1; i < keys.length && sorted; i++) if (keys[i - 1]! > keys[i]!) sorted = false;
    let out: Obj | undefined = sorted ? undefined : {};
    const inOrder = sorted ? keys : keys.sort();
    for (let i = 0; i < inOrder.length; i++) {
      const k = inOrder[i]!;
      const v = obj[k];
      const c = how.values && isPlainObject(v) ? this.order(v, how.values) : v;
      if (c !== v && !out) {
        out = {};
        for (let j = 0; j < i; j++) out[inOrder[j]!] = obj[inOrder[j]!];
      }
      if (out) out[k] = c;
    }
    return out ?? obj;
  }

  private plan(message: string): MessageOrder {
    let plan = this.orders.get(message);
    if (plan) return plan;
    const fields = this.memberFields(message);
    const children = new Map<string, ValueOrder>();
    for (const f of fields) {
      if (f.type !== PROTO.message || !f.typeName || OPAQUE.has(f.typeName)) continue;
      const entry = this.schema.mapEntryOf(f);
      if (entry) {
        const value = entry.byNumber.get(2);
        const values = value?.type === PROTO.message && value.typeName && !OPAQUE.has(value.typeName) ? value.typeName : undefined;
        children.set(f.json, { map: true, values });
      } else {
        children.set(f.json, { message: f.typeName });
      }
    }
    const index = new Map<string, number>();
    fields.forEach((f, i) => {
      if (!index.has(f.json)) index.set(f.json, i);
    });
    plan = { index, children };
    this.orders.set(message, plan);
    return plan;
  }

  /** The fields that are the message's JSON members, in Go order: an embedded struct's fields in its place. */
  private memberFields(message: string): FieldDef[] {
    return this.schema.message(message).fields.flatMap((f) => (f.inline && f.typeName ? this.memberFields(f.typeName) : [f]));
  }
}

