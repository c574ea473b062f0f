import { useEffect } from 'react'
import { useT } from '../../i18n/use-t'
import { useStoreApi } from '../../store/app-context'
import { FaultRuleForm } from './fault-rule-form'
import { FaultsList } from './faults-list'

/** The Faults panel: the active rules with their hits and expiry, a form to add one, remove, remove all. */
export function FaultsScreen() {
  const t = useT()
  const store = useStoreApi()

  useEffect(() => {
    void store.getState().loadFaults()
  }, [store])

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>{t('faults.title')}</h1>
          <p className="muted">{t('faults.intro')}</p>
        </div>
      </header>
      {/* The active rules first: what the service does now is what the operator must see. */}
      <FaultsList />
      <FaultRuleForm />
    </div>
  )
}
