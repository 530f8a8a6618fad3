import { Anchor, Badge, Collapse, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { Prospect } from '../../../core/types';
import { reasoningHeading } from '../../texts';
import { ScoreBreakdown } from './ScoreBreakdown';

/** The analysis: confidence, the reasoning and who wrote it, the recommended ads, the score breakdown. */
export function Analysis({
  prospect: p,
  analysis,
  headingId,
}: {
  prospect: Prospect;
  analysis: NonNullable<Prospect['aiAnalysis']>;
  headingId: string;
}) {
  const [showBreakdown, setShowBreakdown] = useState(false);
  const [breakdownBuilt, setBreakdownBuilt] = useState(false);
  return (
    <div className="analysis-block">
      <Text size="sm" fw={600}>
        AI confidence: {Math.round(analysis.confidence ?? 0)}%
      </Text>
      {analysis.reasoning && (
        <>
          <Text size="sm" fw={600} mt={4} data-testid="reasoning-heading">
            {reasoningHeading(Math.round(analysis.score ?? p.score * 100))}
          </Text>
          <Text size="sm">{analysis.reasoning}</Text>
          {analysis.reasoningModel && (
            <Text size="xs" c="dimmed" data-testid="reasoning-model">
              Written by {analysis.reasoningModel}
            </Text>
          )}
        </>
      )}
      {(analysis.recommendations ?? []).length > 0 && (
        <>
          <Text size="sm" fw={600} mt={4} id={`${headingId}-recs`}>
            Recommended ad solutions:
          </Text>
          <Group gap={4} mt={2} role="list" aria-labelledby={`${headingId}-recs`}>
            {(analysis.recommendations ?? []).map((r) => (
              <Badge key={r} variant="outline" color="blue" tt="none" role="listitem">
                {r}
              </Badge>
            ))}
          </Group>
        </>
      )}
      {analysis.breakdown && (
        <>
          <Anchor
            component="button"
            type="button"
            size="xs"
            mt={4}
            onClick={() => {
              setBreakdownBuilt(true);
              setShowBreakdown((v) => !v);
            }}
            aria-expanded={showBreakdown}
          >
            {showBreakdown ? 'Hide score breakdown' : 'Show score breakdown'}
          </Anchor>
          <Collapse expanded={showBreakdown}>
            {/* Built on first opening: a table per card for every card of the list is most of the list's
                first render. */}
            {breakdownBuilt && <ScoreBreakdown prospect={p} />}
          </Collapse>
        </>
      )}
    </div>
  );
}
