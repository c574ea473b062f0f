import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadTemplateCatalogue, placeholdersIn } from '../../src/service/ops/templates-catalogue'
import { makeTempDir } from '../helpers/temp-dir'

const SHIPPED = fileURLToPath(new URL('../../resources/templates', import.meta.url))

function copyShipped(): string {
  const directory = makeTempDir()
  for (const name of readdirSync(SHIPPED)) copyFileSync(join(SHIPPED, name), join(directory, name))
  return directory
}

describe('the shipped templates', () => {
  const catalogue = loadTemplateCatalogue(SHIPPED)

  it('are at least 8, in English and Arabic, English first', () => {
    const templates = catalogue.list()
    expect(templates.length).toBeGreaterThanOrEqual(8)
    expect(templates.filter((template) => template.lang === 'en').length).toBeGreaterThanOrEqual(4)
    expect(templates.filter((template) => template.lang === 'ar').length).toBeGreaterThanOrEqual(4)
    const langs = templates.map((template) => template.lang)
    expect(langs).toEqual([...langs].sort((a, b) => (a === b ? 0 : a === 'en' ? -1 : 1)))
  })

  it('each carry a greeting with placeholders, pokes, an outcome prompt and an object shape whose fields it names', () => {
    for (const { id } of catalogue.list()) {
      const template = catalogue.find(id)!
      expect(placeholdersIn(template.greetingMessage).length, template.agentName).toBeGreaterThan(0)
      expect(template.pokeMessages.length).toBeGreaterThan(0)
      expect(template.outcomeResponseShape.type).toBe('object')
      const fields = Object.keys(template.outcomeResponseShape.properties ?? {})
      expect(fields.length).toBeGreaterThanOrEqual(3)
      for (const field of fields) expect(template.outcome, `${template.agentName}: ${field}`).toContain(field)
      const used = new Set([...placeholdersIn(template.greetingMessage), ...placeholdersIn(template.preamble)])
      expect(new Set(Object.keys(template.params))).toEqual(used)
    }
  })

  it('write Arabic templates in Arabic', () => {
    for (const template of catalogue.list().filter((candidate) => candidate.lang === 'ar')) {
      for (const text of [template.agentName, template.greetingMessage, template.description, template.outcome]) {
        expect(text, template.agentName).toMatch(/[\u0600-\u06FF]/)
      }
    }
  })
})

describe('loadTemplateCatalogue', () => {
  it('stops on a template with an invalid shape, naming the file', () => {
    const directory = copyShipped()
    const name = readdirSync(directory)[0]!
    const template = JSON.parse(readFileSync(join(directory, name), 'utf8'))
    template.outcomeResponseShape = { type: 'object', required: ['missing'] }
    writeFileSync(join(directory, name), JSON.stringify(template))
    expect(() => loadTemplateCatalogue(directory)).toThrow(new RegExp(`Template ${name} is invalid`))
  })

  it('stops on a placeholder that has no sample value', () => {
    const directory = copyShipped()
    const name = readdirSync(directory)[0]!
    const template = JSON.parse(readFileSync(join(directory, name), 'utf8'))
    template.greetingMessage += ' {{undeclaredPlaceholder}}'
    writeFileSync(join(directory, name), JSON.stringify(template))
    expect(() => loadTemplateCatalogue(directory)).toThrow(/undeclaredPlaceholder/)
  })

  it('stops on two templates with one id', () => {
    const directory = copyShipped()
    const name = readdirSync(directory)[0]!
    copyFileSync(join(directory, name), join(directory, `copy-${name}`))
    expect(() => loadTemplateCatalogue(directory)).toThrow(/share an id/)
  })
})
