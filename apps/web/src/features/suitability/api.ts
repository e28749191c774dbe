import type { QuestionnaireData, RiskRatingData, SubmitQuestionnaireData } from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';

/** `GET web/getQuestionnaire` (public): the questions, the scoring table in force, the caps of each rating. */
export function useQuestionnaire() {
  return useQuery({
    queryKey: ['web/getQuestionnaire'],
    queryFn: () => apiGet<QuestionnaireData>('web/getQuestionnaire'),
    staleTime: 60_000,
  });
}

/** `GET web/getRiskRating` (login): my rating, what it allows, when I may retake, history. */
export function useRiskRating() {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getRiskRating', token],
    queryFn: () => apiGet<RiskRatingData>('web/getRiskRating'),
    enabled: token !== null,
    staleTime: 30_000,
  });
}

/** `POST web/submitQuestionnaire`: a new rating; the contract list's leverage maximum changes with it. */
export function useSubmitQuestionnaire() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (answers: Record<string, string>) =>
      apiPost<SubmitQuestionnaireData>('web/submitQuestionnaire', answers),
    onSuccess: async (data) => {
      client.setQueriesData({ queryKey: ['web/getRiskRating'] }, data.rating);
      await Promise.all([
        client.invalidateQueries({ queryKey: ['web/getRiskRating'] }),
        client.invalidateQueries({ queryKey: ['web/getContracts'] }),
      ]);
    },
  });
}
