import type { OperatorAgent } from '../../../../shared/ipc/operations'
import { useT } from '../../i18n/use-t'
import { TextField } from '../../ui/field'
import { EditorSection } from './editor-section'
import type { AgentSectionProps } from './use-agent-form'

/** Where the agent's outcome goes: the webhook's URL and the header that authenticates it (its secret write-only). */
export function AgentWebhookSection({ bind, errorsOf, savedAuth }: AgentSectionProps & { savedAuth: OperatorAgent['webhookAuth'] }) {
  const t = useT()
  return (
    <EditorSection id="sec-webhook" title={t('agent.sectionWebhook')}>
      <TextField
        label={t('agent.webhookUrl')}
        hint={t('agent.webhookUrlHint')}
        {...bind('webhookUrl')}
        dir="ltr"
        type="url"
        placeholder="https://example.com/hooks/voicedesk"
      />
      <div className="grid-2">
        <TextField
          label={t('agent.authKey')}
          hint={t('agent.authKeyHint')}
          {...bind('webhookAuthKey')}
          errors={errorsOf('webhookAuth')}
          dir="ltr"
          autoComplete="off"
          placeholder="Bearer"
        />
        <TextField
          label={t('agent.authSecret')}
          hint={savedAuth ? t('agent.authSecretKept') : undefined}
          {...bind('webhookAuthSecret')}
          errors={undefined}
          dir="ltr"
          type="password"
          autoComplete="new-password"
          placeholder={savedAuth ? savedAuth.authSecret : ''}
        />
      </div>
    </EditorSection>
  )
}
