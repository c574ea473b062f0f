import { describe, expect, it } from 'vitest'
import { fieldErrorsOf, fieldPathOf } from '../../src/renderer/src/lib/field-errors'
import { checkOutcomeShapeText } from '../../src/renderer/src/lib/outcome-shape-text'
import { checkPhoneNumber } from '../../src/renderer/src/lib/phone-number'
import {
  fillPlaceholders,
  missingPlaceholders,
  placeholderNames,
  placeholderState,
  splitPlaceholders,
} from '../../src/shared/text/placeholders'
import { translate } from '../../src/renderer/src/i18n/dictionary'

describe('placeholders', () => {
  it('splits a template into text and placeholders, each with its value from params', () => {
    expect(splitPlaceholders('Hi {{ name }}, I am {{agent}}!', { name: 'Dana' })).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'placeholder', name: 'name', raw: '{{ name }}', value: 'Dana', state: 'filled' },
      { kind: 'text', text: ', I am ' },
      { kind: 'placeholder', name: 'agent', raw: '{{agent}}', value: undefined, state: 'missing' },
      { kind: 'text', text: '!' },
    ])
  })

  it('leaves what is not a placeholder name as text', () => {
    expect(splitPlaceholders('{{1abc}} {{a-b}} {single}')).toEqual([{ kind: 'text', text: '{{1abc}} {{a-b}} {single}' }])
  })

  it('fills known placeholders and keeps unknown ones as written, in Arabic too', () => {
    expect(fillPlaceholders('مرحبا {{name}}، أنا {{agent}}', { name: 'دانة' })).toBe('مرحبا دانة، أنا {{agent}}')
    // A value that looks like a placeholder is not filled again.
    expect(fillPlaceholders('{{a}}', { a: '{{b}}', b: 'x' })).toBe('{{b}}')
    // Inherited keys are not params.
    expect(fillPlaceholders('{{toString}}', {})).toBe('{{toString}}')
  })

  it('flags a param whose value is empty or only spaces: not filled, and not missing either', () => {
    const params = { name: '', company: ' \t ', agent: 'Sam' }
    expect(placeholderState(params, 'name')).toBe('empty')
    expect(placeholderState(params, 'company')).toBe('empty')
    expect(placeholderState(params, 'agent')).toBe('filled')
    expect(placeholderState(params, 'city')).toBe('missing')
    expect(
      splitPlaceholders('{{name}} {{company}} {{agent}} {{city}}', params).flatMap((segment) =>
        segment.kind === 'placeholder' ? [[segment.name, segment.state]] : [],
      ),
    ).toEqual([
      ['name', 'empty'],
      ['company', 'empty'],
      ['agent', 'filled'],
      ['city', 'missing'],
    ])
    expect(missingPlaceholders(params, '{{name}} {{company}} {{agent}} {{city}}')).toEqual(['name', 'company', 'city'])
  })

  it('lists names once, in order, and those params do not fill', () => {
    expect(placeholderNames('{{b}} {{a}}', '{{b}} {{c}}')).toEqual(['b', 'a', 'c'])
    expect(missingPlaceholders({ a: '1' }, '{{b}} {{a}}', '{{c}}')).toEqual(['b', 'c'])
  })
})

describe('the outcome shape editor check', () => {
  it('accepts empty text as no shape, and a valid shape', () => {
    expect(checkOutcomeShapeText('  ')).toEqual({ ok: true, shape: null })
    expect(checkOutcomeShapeText('{"type":"array","items":{"type":"string"}}')).toEqual({
      ok: true,
      shape: { type: 'array', items: { type: 'string' } },
    })
  })

  it('names the path of the first problem', () => {
    expect(checkOutcomeShapeText('{"type":"object","properties":{"ok":{"type":"maybe"}}}')).toMatchObject({
      ok: false,
      path: 'properties.ok.type',
    })
    expect(checkOutcomeShapeText('{"type":"object","required":["missing"]}')).toMatchObject({ ok: false, path: 'required.0' })
  })

  it('reports JSON that does not parse at the document', () => {
    expect(checkOutcomeShapeText('{"type": ')).toMatchObject({ ok: false, path: '' })
  })
})

describe('field errors', () => {
  it('maps detail paths of either transport to the top-level field', () => {
    expect(fieldPathOf('body.webhookUrl')).toBe('webhookUrl')
    expect(fieldPathOf('changes.webhookAuth.authSecret')).toBe('webhookAuth.authSecret')
    expect(fieldPathOf('input')).toBe('')
    expect(
      fieldErrorsOf(
        [
          { path: 'changes.webhookUrl', message: 'Invalid URL' },
          { path: 'changes.params.1x', message: 'Bad name' },
          { path: 'input', message: 'Unknown field' },
        ],
        'en',
      ),
    ).toEqual({
      webhookUrl: ['Enter a full web address, such as https://example.com/hook.'],
      params: ['In «\u20661x\u2069»: Bad name'],
      '': ['Unknown field'],
    })
  })
})

describe('phone numbers as typed', () => {
  it('follows the service: E.164 after removing spaces, dashes, dots and brackets', () => {
    expect(checkPhoneNumber('')).toEqual({ state: 'empty' })
    expect(checkPhoneNumber('+1 (415) 555-0123')).toEqual({ state: 'valid', e164: '+14155550123' })
    expect(checkPhoneNumber('0044 20').state).toBe('invalid')
    expect(checkPhoneNumber('+0123').state).toBe('invalid')
  })
})

describe('the dictionary', () => {
  it('fills values and falls back to the mark when a value is missing', () => {
    expect(translate('en', 'status.jobs', { running: 2, pending: 5 })).toBe('2 running · 5 waiting')
    expect(translate('ar', 'common.pageOf', { page: 1 })).toBe('الصفحة 1 من {pages}')
  })
})
