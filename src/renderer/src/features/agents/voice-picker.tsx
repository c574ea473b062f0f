import { useEffect, useRef, useState } from 'react'
import { useCall, useAppStore, useStoreApi } from '../../store/app-context'
import { useT } from '../../i18n/use-t'
import { selectVoices } from '../../store/selectors'
import { Icon } from '../../ui/icon'
import { voiceAccent, voiceDescription } from '../../lib/voice-text'

interface VoicePickerProps {
  id: string
  value: string
  /** The agent's language: its voices are listed first. */
  lang: 'ar' | 'en'
  onChange(voiceId: string): void
  describedBy?: string
  /** What "Hear it" says (the greeting, when there is one). */
  sampleText?: string
}

/** A voice from voices.list, and "Hear it": a sample made by the TTS engine, played in place. */
export function VoicePicker({ id, value, lang, onChange, describedBy, sampleText }: VoicePickerProps) {
  const t = useT()
  const call = useCall()
  const store = useStoreApi()
  const voices = useAppStore(selectVoices)
  const [sample, setSample] = useState<{ voiceId: string; url: string } | null>(null)
  const [loading, setLoading] = useState(false)
  const audio = useRef<HTMLAudioElement>(null)

  useEffect(() => {
    void store
      .getState()
      .loadVoices()
      .catch((error: unknown) => store.getState().toastError(error))
  }, [store])

  useEffect(() => {
    if (sample && audio.current) void audio.current.play().catch(() => {})
  }, [sample])

  const hear = async () => {
    setLoading(true)
    try {
      const text = sampleText?.trim() ? sampleText.trim().slice(0, 300) : undefined
      const answer = await call('voices.sample', { voiceId: value, text })
      setSample({ voiceId: answer.voiceId, url: answer.audioDataUrl })
    } catch (error) {
      store.getState().toastError(error)
    } finally {
      setLoading(false)
    }
  }

  const groups = (['ar', 'en'] as const).slice().sort((a) => (a === lang ? -1 : 1))
  return (
    <div className="voice-picker">
      <select id={id} className="input" value={value} onChange={(event) => onChange(event.target.value)} aria-describedby={describedBy}>
        {voices.length === 0 ? <option value={value}>{value}</option> : null}
        {groups.map((group) => (
          <optgroup key={group} label={t(group === 'ar' ? 'lang.ar' : 'lang.en')}>
            {voices
              .filter((voice) => voice.lang === group)
              .map((voice) => (
                <option key={voice.id} value={voice.id}>
                  {`${voice.name} · ${t(voice.gender === 'female' ? 'voice.female' : 'voice.male')} · ${voiceAccent(voice.accent, t)}`}
                </option>
              ))}
          </optgroup>
        ))}
      </select>
      <button type="button" className="button" onClick={() => void hear()} disabled={loading} aria-busy={loading || undefined}>
        <Icon name="play" size={14} />
        <span>{loading ? t('voice.making') : t('voice.hear')}</span>
      </button>
      {sample ? <audio ref={audio} controls src={sample.url} aria-label={t('voice.sample')} className="sample-audio" /> : null}
      <p className="field-hint">{voiceDescription(voices.find((voice) => voice.id === value)?.description ?? '', t)}</p>
    </div>
  )
}
