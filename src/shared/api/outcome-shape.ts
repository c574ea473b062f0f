import { z } from 'zod'

/**
 * `outcomeResponseShape`: a small, strict subset of JSON Schema that describes the
 * structured result an agent's outcome prompt must produce. Checked on every write:
 * an invalid shape is a 400 that names the path of the problem.
 */
export const OUTCOME_SHAPE_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'] as const
export const OUTCOME_SHAPE_MAX_DEPTH = 16
export const OUTCOME_SHAPE_MAX_BYTES = 64 * 1024

export interface OutcomeShape {
  type: (typeof OUTCOME_SHAPE_TYPES)[number]
  description?: string
  enum?: (string | number | boolean | null)[]
  properties?: Record<string, OutcomeShape>
  required?: string[]
  items?: OutcomeShape
}

export const OutcomeShapeNode: z.ZodType<OutcomeShape> = z
  .object({
    type: z.enum(OUTCOME_SHAPE_TYPES),
    description: z.string().max(2000).optional(),
    enum: z
      .array(z.union([z.string(), z.number(), z.boolean(), z.null()]))
      .min(1)
      .max(200)
      .optional(),
    get properties() {
      return z.record(z.string().min(1).max(100), OutcomeShapeNode).optional()
    },
    required: z.array(z.string()).optional(),
    get items() {
      return OutcomeShapeNode.optional()
    },
  })
  .strict()
  .superRefine((node, ctx) => {
    if (node.type !== 'object' && (node.properties !== undefined || node.required !== undefined)) {
      ctx.addIssue({ code: 'custom', message: `properties and required are only allowed when type is object`, path: ['type'] })
    }
    if (node.type !== 'array' && node.items !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'items is only allowed when type is array', path: ['items'] })
    }
    const declared = new Set(Object.keys(node.properties ?? {}))
    node.required?.forEach((name, index) => {
      if (!declared.has(name)) {
        ctx.addIssue({ code: 'custom', message: `required names "${name}", which is not in properties`, path: ['required', index] })
      }
    })
  })
  // A registry id makes the recursion a named component the OpenAPI document refers to
  // (#/components/schemas/OutcomeShape); without one, zod parks the cycle in a `__shared`
  // entry whose `#/components/schemas/__shared#/$defs/schema0` refs no parser can resolve.
  .meta({
    id: 'OutcomeShape',
    // The superRefine's type rules in the document's words (that `required` names declared
    // properties is beyond JSON Schema: docs/api.md says so).
    dependentSchemas: {
      properties: { properties: { type: { const: 'object' } } },
      required: { properties: { type: { const: 'object' } } },
      items: { properties: { type: { const: 'array' } } },
    },
    description: 'One node of an outcome result shape: a strict subset of JSON Schema, nested at most 16 levels, at most 64 KiB.',
  })

/** Nesting depth counted in shape levels: a bare `{ type }` is 1, each `properties`/`items` step adds 1. */
function shapeDepth(value: unknown): number {
  let deepest = 0
  const pending: [unknown, number][] = [[value, 1]]
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next
    if (typeof node !== 'object' || node === null) continue
    deepest = Math.max(deepest, depth)
    if (depth > OUTCOME_SHAPE_MAX_DEPTH) break
    const { properties, items } = node as { properties?: unknown; items?: unknown }
    if (typeof properties === 'object' && properties !== null) {
      for (const child of Object.values(properties)) pending.push([child, depth + 1])
    }
    if (items !== undefined) pending.push([items, depth + 1])
  }
  return deepest
}

/**
 * Depth and size are checked on the whole shape once it parsed. Parsing itself cannot
 * recurse without bound: every JSON body is refused beyond 64 levels of nesting first.
 */
// Through z.lazy, so the document shows a plain $ref to OutcomeShape here (a clone of the node
// would repeat its whole body beside the $ref).
export const OutcomeResponseShapeSchema = z
  .lazy(() => OutcomeShapeNode)
  .superRefine((shape, ctx) => {
    if (shapeDepth(shape) > OUTCOME_SHAPE_MAX_DEPTH) {
      ctx.addIssue({ code: 'custom', message: `Shape is nested deeper than ${OUTCOME_SHAPE_MAX_DEPTH} levels` })
    } else if (new TextEncoder().encode(JSON.stringify(shape)).length > OUTCOME_SHAPE_MAX_BYTES) {
      ctx.addIssue({ code: 'custom', message: `Shape is larger than ${OUTCOME_SHAPE_MAX_BYTES / 1024} KiB` })
    }
  })
