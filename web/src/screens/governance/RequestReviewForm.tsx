/**
 * For the action screen (mounted by the core): the comment that goes with a run request of a
 * review-gated action. `comment` is sent in the execute call's body (docs/governance.md); the
 * screen keeps its own Run button, this only adds the labelled field and its hint.
 */
import { Field } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';

export function ReviewCommentField({ value, onChange }: { value: string; onChange(comment: string): void }) {
  const t = useT();
  return (
    <Field label={t('governance.reviews.requestComment')} hint={t('governance.reviews.requestCommentHint')}>
      <textarea value={value} onChange={(event) => onChange(event.target.value)} maxLength={2000} rows={2} />
    </Field>
  );
}
