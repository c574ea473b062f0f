/**
 * Says, frame by frame, whether a voice is present. Frames may have any length; a classifier
 * that works on fixed blocks buffers them and answers with its latest decision.
 */
export interface VoiceClassifier {
  /** Samples in [-1, 1] at the classifier's rate; true while a voice is present. */
  isVoice(frame: Float32Array): boolean
  /**
   * The same verdict from 16-bit samples, for a classifier that judges those itself: what
   * decodes media to PCM16 (transcription's windows, hours of audio) needs no conversion to
   * floats and back for each frame.
   */
  isVoiceInt16?(frame: Int16Array): boolean
  /**
   * How long after a voice stops the classifier may still say it is there (a level averaged over a
   * window stays up for that window): the turn detector moves a turn's end back by it. Default 0.
   */
  readonly endLagMs?: number
  dispose(): void
}

/** A voice only where every classifier hears one (each is fed every frame, so each keeps its own state). */
export function allOfVoiceClassifiers(classifiers: VoiceClassifier[]): VoiceClassifier {
  return {
    // A voice ends when the first classifier stops hearing it.
    endLagMs: Math.min(...classifiers.map((classifier) => classifier.endLagMs ?? 0)),
    isVoice(frame) {
      let voice = true
      for (const classifier of classifiers) voice = classifier.isVoice(frame) && voice
      return voice
    },
    dispose() {
      for (const classifier of classifiers) classifier.dispose()
    },
  }
}
