import { useT } from '../../i18n/use-t'
import { ModalDialog } from '../../ui/modal-dialog'

interface LeaveDraftDialogProps {
  open: boolean
  agentName: string
  saving: boolean
  onSave(): void
  onDiscard(): void
  onStay(): void
}

/** Asked when the operator leaves an unsaved agent: save, discard, or stay (Escape stays). */
export function LeaveDraftDialog({ open, agentName, saving, onSave, onDiscard, onStay }: LeaveDraftDialogProps) {
  const t = useT()
  return (
    <ModalDialog
      open={open}
      title={t('draft.leaveTitle', { name: agentName })}
      onClose={onStay}
      actions={
        <>
          <button type="button" className="button" onClick={onStay}>
            {t('draft.stay')}
          </button>
          <button type="button" className="button danger" onClick={onDiscard}>
            {t('draft.discard')}
          </button>
          <button
            type="button"
            className="button primary"
            data-autofocus
            aria-busy={saving || undefined}
            onClick={() => !saving && onSave()}
          >
            {saving ? t('common.saving') : t('draft.save')}
          </button>
        </>
      }
    >
      <p>{t('draft.leaveExplain')}</p>
    </ModalDialog>
  )
}
