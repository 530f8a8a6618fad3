/** The product mark: a radar sweep over a map pin. Decorative next to the product name. */
export function Logo({ size = 40 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#1c7ed6" />
      <circle cx="32" cy="32" r="20" fill="none" stroke="#a5d8ff" strokeWidth="3" />
      <circle cx="32" cy="32" r="11" fill="none" stroke="#a5d8ff" strokeWidth="3" />
      <path d="M32 32 L32 12 A20 20 0 0 1 50 24 Z" fill="#74c0fc" opacity="0.8" />
      <circle cx="41" cy="22" r="4" fill="#ff6b6b" />
      <circle cx="32" cy="32" r="3" fill="#fff" />
    </svg>
  );
}
