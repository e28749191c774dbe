/** The suitability screens the route table loads (one chunk). */
export { QuestionnairePage } from './QuestionnairePage.tsx';
export { RiskAssessmentPage } from './RiskAssessmentPage.tsx';
