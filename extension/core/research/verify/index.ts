export { claimJudgeFrom, parseVerdict, type CompleteText } from './model-judge';
export {
  INVENTED_MARK,
  sourcesSection,
  UNSUPPORTED_MARK,
  verifyReport,
  type ClaimJudge,
  type ClaimVerdict,
  type FetchedSource,
  type VerifiedReport,
  type VerificationStats,
} from './verify-report';
