/**
 * Times as the panel shows them. The server counts in Unix seconds.
 */

/** Now, in the server's unit (Unix seconds). */
export function nowSeconds(): number {
  return Date.now() / 1000;
}

/** A promise that resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, ms));
}

/** "5 min ago", "3 h ago", "2 days ago": past a minute, counted with `round`. */
function minutesAgo(seconds: number, round: (n: number) => number): string {
  const minutes = round(seconds / 60);
  if (minutes < 60) {
    return `${minutes} min ago`;
  }
  const hours = round(minutes / 60);
  if (hours < 24) {
    return `${hours} h ago`;
  }
  const days = round(hours / 24);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

/**
 * Coarse, for a list of changes: "just now" (under 45 s), then rounded
 * minutes, hours or days ("5 min ago").
 */
export function timeAgo(then: number, now: number): string {
  const seconds = Math.max(0, Math.floor(now - then));
  return seconds < 45 ? 'just now' : minutesAgo(seconds, Math.round);
}

/**
 * To the second, for an agent's last call: "just now" (under 5 s), "40 s
 * ago", then whole minutes, hours or days.
 */
export function relativeTime(then: number, now: number): string {
  const seconds = Math.max(0, Math.floor(now - then));
  if (seconds < 5) {
    return 'just now';
  }
  if (seconds < 60) {
    return `${seconds} s ago`;
  }
  return minutesAgo(seconds, Math.floor);
}

/**
 * "45 s left", "15 min left", "7 h 59 min left", "6 days 23 h left",
 * "expired". Past a minute, rounded to the nearest minute (to the nearest
 * hour past a day): a grant of an hour, shown a moment after it was made,
 * has "1 h left", not "59 min left".
 */
export function timeLeft(expires: number, now: number): string {
  const seconds = Math.floor(expires - now);
  if (seconds <= 0) {
    return 'expired';
  }
  if (seconds < 60) {
    return `${seconds} s left`;
  }
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) {
    return `${minutes} min left`;
  }
  if (minutes < 24 * 60) {
    const hours = Math.floor(minutes / 60);
    const rest = minutes % 60;
    return rest ? `${hours} h ${rest} min left` : `${hours} h left`;
  }
  const hours = Math.round(minutes / 60);
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  const dayText = `${days} day${days === 1 ? '' : 's'}`;
  return rest ? `${dayText} ${rest} h left` : `${dayText} left`;
}

/** The clock time of a Unix time, "14:03:27" (the viewer's time zone). */
export function formatTime(time: number): string {
  const date = new Date(time * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** "0.4 ms", "12 ms", "1,250 ms": always milliseconds, as the server measures. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) {
    return '';
  }
  if (ms < 10) {
    return `${ms.toFixed(1)} ms`;
  }
  return `${Math.round(ms).toLocaleString('en-US')} ms`;
}
