/**
 * What the agent says to the conversation moves that are not answers: a caller who needs a
 * moment ("wait", "لحظة") and one who asks who is speaking ("who is this?", "مين معي؟").
 * The question that was open is asked again after each, unchanged.
 */
export interface MoveReplies {
  takeYourTime: string
  whoIsThis: (agentName: string) => string
}

const EN: MoveReplies = {
  takeYourTime: "Of course, take your time. I'm here.",
  whoIsThis: (agentName) => `This is ${agentName}, the automated assistant.`,
}

const AR: MoveReplies = {
  takeYourTime: 'أكيد، على راحتك. أنا معك.',
  whoIsThis: (agentName) => `معك ${agentName}، المساعد الآلي.`,
}

export function moveReplies(lang: string): MoveReplies {
  return lang === 'ar' ? AR : EN
}
