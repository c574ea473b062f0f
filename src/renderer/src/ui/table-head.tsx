import { useT } from '../i18n/use-t'

/** A column's heading; an `optional` one is hidden in a narrow window (the `col-optional` rule). */
export interface TableColumn {
  label: string
  optional?: boolean
}

/**
 * The header row of the console's tables. `actions` adds a last column for a row's buttons,
 * named for screen readers only (a visible heading would say nothing a button does not).
 */
export function TableHead({ columns, actions = false }: { columns: readonly TableColumn[]; actions?: boolean }) {
  const t = useT()
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column.label} scope="col" className={column.optional ? 'col-optional' : undefined}>
            {column.label}
          </th>
        ))}
        {actions ? (
          <th scope="col">
            <span className="visually-hidden">{t('common.actions')}</span>
          </th>
        ) : null}
      </tr>
    </thead>
  )
}
