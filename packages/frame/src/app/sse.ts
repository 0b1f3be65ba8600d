/** One server-sent event. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Splits a text/event-stream into events (WHATWG "server-sent events" framing: blocks separated by a blank line,
 * `event:` and `data:` fields, `:` comments ignored). Feed it chunks; it returns the complete events so far.
 */
export function sseParser(): (chunk: string) => SseEvent[] {
  let buffer = '';
  return (chunk) => {
    buffer += chunk.replace(/\r\n?/g, '\n');
    const out: SseEvent[] = [];
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const i = line.indexOf(':');
        const field = i < 0 ? line : line.slice(0, i);
        const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length > 0) out.push({ event, data: data.join('\n') });
      end = buffer.indexOf('\n\n');
    }
    return out;
  };
}
