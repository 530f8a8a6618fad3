// What a local stand-in for an OpenAI-compatible endpoint answers: the body of a chat completion (the real
// response format of POST /v1/chat/completions) whose one choice carries `content`.
export function chatCompletion(content: string, model = 'test-model'): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}
