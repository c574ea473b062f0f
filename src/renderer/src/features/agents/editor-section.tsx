import type { ReactNode } from 'react'

/** One card of the agent editor, named by its heading (`id` ties the two together). */
export function EditorSection({ id, title, className, children }: { id: string; title: string; className?: string; children: ReactNode }) {
  return (
    <section className={className ? `card ${className}` : 'card'} aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  )
}
