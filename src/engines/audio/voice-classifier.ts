/**
 * Says, frame by frame, whether a voice is present. Frames may have any length; a classifier
 * that works on fixed blocks buffers them and answers with its latest decision.
 */
export interface VoiceClassifier {
  /** Samples in [-1, 1] at the classifier's rate; true while a voice is present. */
  isVoice(frame: Float32Array): boolean
  dispose(): void
}
