import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABELS, auditActionLabel } from './audit';

describe('audit action labels', () => {
  it('gives every action its own words', () => {
    const labels = Object.values(AUDIT_ACTION_LABELS);
    expect(new Set(labels).size).toBe(labels.length);
    expect(auditActionLabel('user.hard_delete')).toBe('Hard-deleted a user');
  });

  it('shows a code it does not know as stored, and never an inherited property', () => {
    expect(auditActionLabel('user.future_action')).toBe('user.future_action');
    expect(auditActionLabel('toString')).toBe('toString');
  });
});
