import { useEffect, useId, useRef, type ReactNode } from 'react'
import { useT } from '../i18n/use-t'
import { Icon } from './icon'

interface ModalDialogProps {
  title: string
  open: boolean
  onClose(): void
  children: ReactNode
  /** Buttons at the bottom. */
  actions?: ReactNode
}

/**
 * A modal on the native <dialog>: showModal() makes the rest inert, keeps focus inside and closes
 * on Escape. Focus goes to the first field, and back to whatever opened the dialog when it closes.
 */
export function ModalDialog({ title, open, onClose, children, actions }: ModalDialogProps) {
  const t = useT()
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      const opener = document.activeElement as HTMLElement | null
      dialog.showModal()
      // The first field (or one marked data-autofocus), rather than the close button.
      dialog.querySelector<HTMLElement>('[data-autofocus], .modal-content input, .modal-content select, .modal-content textarea')?.focus()
      return () => opener?.focus?.()
    }
    if (!open && dialog.open) dialog.close()
    return undefined
  }, [open])
  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(event) => (event.preventDefault(), onClose())}
    >
      {open ? (
        <div className="modal-body">
          <header className="modal-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="button icon-button ghost" onClick={onClose} aria-label={t('common.close')}>
              <Icon name="x" size={16} />
            </button>
          </header>
          <div className="modal-content">{children}</div>
          {actions ? <footer className="modal-actions">{actions}</footer> : null}
        </div>
      ) : null}
    </dialog>
  )
}

interface DialogActionsProps {
  onCancel(): void
  /** The main button's words. */
  label: string
  /** The id of the form the main button submits; without it, the button runs onConfirm. */
  form?: string
  onConfirm?(): void
  disabled?: boolean
  /** Red, for what cannot be undone. */
  danger?: boolean
}

/** A dialog's footer: Cancel, then the button that does what the dialog is for. */
export function DialogActions({ onCancel, label, form, onConfirm, disabled, danger }: DialogActionsProps) {
  const t = useT()
  return (
    <>
      <button type="button" className="button" onClick={onCancel}>
        {t('common.cancel')}
      </button>
      <button
        type={form ? 'submit' : 'button'}
        form={form}
        className={danger ? 'button danger' : 'button primary'}
        disabled={disabled}
        onClick={onConfirm}
      >
        {label}
      </button>
    </>
  )
}

interface ConfirmDialogProps {
  open: boolean
  title: string
  /** What the action does and whether it can be undone. */
  explanation: string
  confirmLabel: string
  onConfirm(): void
  onCancel(): void
}

/** Asks before a destructive action (delete, revoke): Cancel, or the red button that does it. */
export function ConfirmDialog({ open, title, explanation, confirmLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <ModalDialog
      open={open}
      title={title}
      onClose={onCancel}
      actions={<DialogActions onCancel={onCancel} label={confirmLabel} onConfirm={() => (onCancel(), onConfirm())} danger />}
    >
      <p>{explanation}</p>
    </ModalDialog>
  )
}
