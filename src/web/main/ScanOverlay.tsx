import { useEffect, useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { ANALYZING_WITH_AI, MAY_TAKE_MINUTES, SCANNING_FOR_PROSPECTS } from '../texts';

interface Blip {
  id: number;
  x: number;
  y: number;
}

const BLIP_EVERY_MS = 300;
const BLIP_LIFE_MS = 2000;

/**
 * The scanning overlay: a rotating radar beam with red blips appearing at random about every 300 ms and
 * vanishing after 2 s. Mounted only while a scan runs, so the animation starts fresh every time. Below its
 * three texts, a line with the scan's real progress once the server reports it.
 */
export function ScanOverlay({ progress }: { progress?: string | null }) {
  const [blips, setBlips] = useState<Blip[]>([]);
  useEffect(() => {
    let next = 1;
    const fades = new Set<number>();
    const timer = window.setInterval(() => {
      const angle = Math.random() * Math.PI * 2;
      const r = Math.sqrt(Math.random()) * 45;
      const blip = { id: next++, x: 50 + r * Math.cos(angle), y: 50 + r * Math.sin(angle) };
      setBlips((list) => [...list.slice(-40), blip]);
      const fade = window.setTimeout(() => {
        fades.delete(fade);
        setBlips((list) => list.filter((b) => b.id !== blip.id));
      }, BLIP_LIFE_MS);
      fades.add(fade);
    }, BLIP_EVERY_MS);
    return () => {
      window.clearInterval(timer);
      for (const fade of fades) window.clearTimeout(fade);
    };
  }, []);
  return (
    <div className="scan-overlay" role="status" aria-live="polite" data-testid="scan-overlay">
      <Stack align="center" gap="sm">
        <div className="radar" aria-hidden="true">
          <div className="radar-ring radar-ring-1" />
          <div className="radar-ring radar-ring-2" />
          <div className="radar-beam" />
          {blips.map((b) => (
            <span key={b.id} className="radar-blip" style={{ left: `${b.x}%`, top: `${b.y}%` }} />
          ))}
        </div>
        <Text fw={700} c="white">
          {SCANNING_FOR_PROSPECTS}
        </Text>
        <Text c="white">{ANALYZING_WITH_AI}</Text>
        <Text size="sm" c="gray.3">
          {MAY_TAKE_MINUTES}
        </Text>
        {/* The server's progress, when its event stream reports it (the texts above stand without it). */}
        {progress && (
          <Text size="sm" c="white" fw={600} data-testid="scan-progress">
            {progress}
          </Text>
        )}
      </Stack>
    </div>
  );
}
