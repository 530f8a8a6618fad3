// The AI provider client and strategy generation; see client.ts and strategy.ts.
export {
  AiClient,
  createAiClient,
  isAiConfigured,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  MAX_RETRY_AFTER_MS,
  MAX_TOKENS,
  TEMPERATURE,
  type AiConfig,
  type ChatMessage,
  type ChatResult,
} from './client';
export {
  buildStrategyPrompt,
  generateStrategy,
  type GenerateOptions,
  type StrategyResult,
  type StrategySource,
} from './strategy';
