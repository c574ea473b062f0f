/**
 * fast-check arbitraries derived from the JSON Schemas of an OpenAPI 3.1 document: values a
 * schema accepts (`validValues`), and values next to a valid one that it rejects (`mutantsOf`:
 * a wrong type, a missing required field, an unknown field, an out-of-pattern string).
 * fast-check does the generating (strings matching a pattern, unique arrays, seeded runs);
 * this file only maps the schema keywords the document uses onto its arbitraries.
 */
import fc, { type Arbitrary } from 'fast-check'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON Schemas are walked as plain JSON
export type Schema = any

export interface ArbitraryOptions {
  /** Resolves a `$ref` (`#/components/schemas/Name`) to its schema. */
  resolve(ref: string): Schema
  /** Values of the service's own records to mix in for fields of these names (ids that exist). */
  hints?: Record<string, readonly unknown[]>
  /** Whether `schema` accepts `value` (a validator): a hint is mixed in only where its field's schema takes it. */
  accepts?(schema: Schema, value: unknown): boolean
}

/** Below this depth an object gets its required properties only, so recursive shapes end. */
const OPTIONAL_PROPERTIES_DEPTH = 3
/** Generated strings and arrays stay short: the server's work per request stays small. */
const EXTRA_LENGTH = 12
const EXTRA_ITEMS = 2

function lengthCap(min: number, max: number | undefined): number {
  return Math.min(max ?? Number.MAX_SAFE_INTEGER, min + EXTRA_LENGTH)
}

function stringArbitrary(schema: Schema): Arbitrary<string> {
  const minLength: number = schema.minLength ?? 0
  const maxLength = lengthCap(minLength, schema.maxLength)
  const fitsLength = (value: string): boolean => {
    const length = [...value].length
    return length >= minLength && length <= (schema.maxLength ?? Infinity)
  }
  switch (schema.format) {
    case 'uuid':
      return fc.uuid({ version: 4 })
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
        .map((date) => date.toISOString())
    case 'uri':
      // A URL generator: a pattern alone (`^https?://`) would mostly give strings that are no URL.
      return fc
        .webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true })
        .filter((url) => fitsLength(url) && (schema.pattern === undefined || new RegExp(schema.pattern, 'u').test(url)))
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10))
    default:
  }
  if (schema.pattern !== undefined) return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(fitsLength)
  return fc.string({ minLength, maxLength })
}

function numberArbitrary(schema: Schema, integer: boolean): Arbitrary<number> {
  const low = schema.exclusiveMinimum ?? schema.minimum
  const high = schema.exclusiveMaximum ?? schema.maximum
  if (integer) {
    const min = Math.max(
      Number.MIN_SAFE_INTEGER,
      low === undefined ? -1_000_000 : Math.ceil(low) + (schema.exclusiveMinimum !== undefined ? 1 : 0),
    )
    const max = Math.min(
      Number.MAX_SAFE_INTEGER,
      high === undefined ? 1_000_000 : Math.floor(high) - (schema.exclusiveMaximum !== undefined ? 1 : 0),
    )
    return fc.integer({ min, max })
  }
  return fc.double({
    min: low ?? -1_000_000,
    max: high ?? 1_000_000,
    minExcluded: schema.exclusiveMinimum !== undefined,
    maxExcluded: schema.exclusiveMaximum !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  })
}

function objectArbitrary(schema: Schema, options: ArbitraryOptions, depth: number): Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>
  const required = new Set<string>(schema.required ?? [])
  const names = Object.keys(properties).filter((name) => required.has(name) || depth < OPTIONAL_PROPERTIES_DEPTH)
  const record = fc.record(Object.fromEntries(names.map((name) => [name, validValues(properties[name], options, depth + 1, name)])), {
    requiredKeys: names.filter((name) => required.has(name)),
  })
  const extra = schema.additionalProperties
  if (names.length > 0 || extra === undefined || extra === false || extra === true) return record
  // A map (`params`, an outcome shape's `properties`): keys from propertyNames, values from additionalProperties.
  const maxKeys = Math.min(schema.maxProperties ?? EXTRA_ITEMS, depth < OPTIONAL_PROPERTIES_DEPTH ? EXTRA_ITEMS : 0)
  return fc.dictionary(stringArbitrary({ type: 'string', minLength: 1, ...schema.propertyNames }), validValues(extra, options, depth + 1), {
    maxKeys,
    noNullPrototype: true,
  })
}

function arrayArbitrary(schema: Schema, options: ArbitraryOptions, depth: number): Arbitrary<unknown[]> {
  const minLength: number = schema.minItems ?? 0
  const maxLength = Math.min(schema.maxItems ?? Number.MAX_SAFE_INTEGER, minLength + (depth < OPTIONAL_PROPERTIES_DEPTH ? EXTRA_ITEMS : 0))
  const items = validValues(schema.items ?? {}, options, depth + 1)
  return schema.uniqueItems
    ? fc.uniqueArray(items, { minLength, maxLength, selector: (item) => JSON.stringify(item) })
    : fc.array(items, { minLength, maxLength })
}

function typedArbitrary(type: string, schema: Schema, options: ArbitraryOptions, depth: number): Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringArbitrary(schema)
    case 'integer':
    case 'number':
      return numberArbitrary(schema, type === 'integer')
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return arrayArbitrary(schema, options, depth)
    case 'object':
      return objectArbitrary(schema, options, depth)
    default:
      throw new Error(`schema type ${type} has no arbitrary`)
  }
}

/** Values `schema` accepts. `name` is the property or parameter's name, for `hints`. */
export function validValues(schema: Schema, options: ArbitraryOptions, depth = 0, name?: string): Arbitrary<unknown> {
  const base = schemaValues(schema, options, depth)
  const hinted = (name === undefined ? undefined : options.hints?.[name])?.filter((value) => options.accepts?.(schema, value) ?? true)
  return hinted && hinted.length > 0 ? fc.oneof(fc.constantFrom(...hinted), base) : base
}

function schemaValues(schema: Schema, options: ArbitraryOptions, depth: number): Arbitrary<unknown> {
  if (schema.$ref !== undefined) return schemaValues(options.resolve(schema.$ref as string), options, depth)
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (schema.enum !== undefined) return fc.constantFrom(...(schema.enum as unknown[]))
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined
  if (branches) {
    // Past the optional depth the last-resort branch (null, the simplest) ends recursion.
    const usable = depth < OPTIONAL_PROPERTIES_DEPTH ? branches : branches.filter((branch) => branch.type === 'null')
    return fc.oneof(...(usable.length > 0 ? usable : branches).map((branch) => schemaValues(branch, options, depth)))
  }
  if (schema.type === undefined) return fc.jsonValue({ maxDepth: 2 })
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as string[]
  return fc.oneof(...types.map((type) => typedArbitrary(type, schema, options, depth)))
}

/** Values of every JSON type, to put where the schema wants another. */
const WRONG_TYPED: readonly unknown[] = [12345, 'not the right type', true, [], {}, null]
/** Strings outside the usual patterns and formats (uuid, E.164, URLs, enums). */
const ODD_STRINGS: readonly string[] = ['', ' ', 'not-a-valid-value ✗', 'ftp://example.com/x', '+0']
/** A field no schema in the document declares. */
export const UNKNOWN_FIELD = 'fieldNoSchemaDeclares'

function resolved(schema: Schema, options: ArbitraryOptions): Schema {
  return schema?.$ref !== undefined ? resolved(options.resolve(schema.$ref as string), options) : schema
}

/** The object branch of a schema (itself, or an anyOf branch), if it has one. */
function objectSchemaOf(schema: Schema, options: ArbitraryOptions): Schema {
  const direct = resolved(schema, options)
  if (direct?.type === 'object') return direct
  const branches = (direct?.anyOf ?? direct?.oneOf ?? []) as Schema[]
  return branches.map((branch) => resolved(branch, options)).find((branch) => branch?.type === 'object')
}

export interface Mutant {
  value: unknown
  /** What was changed, for failure messages: `wrong type at body.lang`, ... */
  change: string
}

/**
 * Values next to `value` (valid under `schema`) that differ in one place: at the top and one
 * level into objects. Some may still be valid (a wrong type the schema also allows): the caller
 * keeps those its validator rejects.
 */
export function mutantsOf(schema: Schema, value: unknown, options: ArbitraryOptions, path = 'body', depth = 0): Mutant[] {
  const mutants: Mutant[] = []
  if (depth === 0) mutants.push(...WRONG_TYPED.map((wrong) => ({ value: wrong, change: `wrong type for ${path}` })))
  const objectSchema = objectSchemaOf(schema, options)
  if (!objectSchema || value === null || typeof value !== 'object' || Array.isArray(value)) return mutants
  const record = value as Record<string, unknown>
  const properties = (objectSchema.properties ?? {}) as Record<string, Schema>
  for (const name of (objectSchema.required ?? []) as string[]) {
    if (!Object.hasOwn(record, name)) continue
    const { [name]: _missing, ...rest } = record
    mutants.push({ value: rest, change: `missing required ${path}.${name}` })
  }
  if (objectSchema.additionalProperties === false)
    mutants.push({ value: { ...record, [UNKNOWN_FIELD]: 1 }, change: `unknown field at ${path}` })
  for (const [name, propertySchema] of Object.entries(properties)) {
    const at = `${path}.${name}`
    for (const wrong of WRONG_TYPED) mutants.push({ value: { ...record, [name]: wrong }, change: `wrong type for ${at}` })
    for (const odd of ODD_STRINGS) mutants.push({ value: { ...record, [name]: odd }, change: `out-of-pattern string for ${at}` })
    if (depth < 1 && Object.hasOwn(record, name))
      for (const inner of mutantsOf(propertySchema, record[name], options, at, depth + 1))
        mutants.push({ value: { ...record, [name]: inner.value }, change: inner.change })
  }
  return mutants
}
