import type { FieldDiff } from '../../../../shared/api/test-suites'
import { useT } from '../../i18n/use-t'

/** A matcher or a value as JSON, on one line; a field the outcome does not have says so. */
function shown(value: unknown, missing: string): string {
  return value === undefined ? missing : JSON.stringify(value)
}

/** Each scored field of a scenario: what was expected (the matcher) against what the call gave. */
export function FieldDiffTable({ fields }: { fields: FieldDiff[] }) {
  const t = useT()
  return (
    <div className="tests-table-wrap">
      <table className="table field-diffs" data-testid="field-diffs">
        <thead>
          <tr>
            <th scope="col">{t('tests.col.field')}</th>
            <th scope="col">{t('tests.col.expected')}</th>
            <th scope="col">{t('tests.col.got')}</th>
            <th scope="col">{t('tests.col.verdict')}</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field) => (
            <tr key={field.field} data-field={field.field} className={field.pass ? 'field-pass' : 'field-fail'}>
              <td>
                <code dir="ltr">{field.field}</code>
              </td>
              <td>
                <code dir="ltr" className="diff-expected">
                  {shown(field.expected, t('tests.missing'))}
                </code>
              </td>
              <td>
                {field.got === undefined ? (
                  <span className="muted">{t('tests.missing')}</span>
                ) : (
                  <code dir="ltr" className="diff-got">
                    {shown(field.got, t('tests.missing'))}
                  </code>
                )}
              </td>
              <td>
                <span className={`badge ${field.pass ? 'badge-completed' : 'badge-failed'}`}>
                  {field.pass ? t('tests.pass') : t('tests.fail')}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
