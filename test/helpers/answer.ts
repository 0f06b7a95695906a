/**
 * A fetch `Response` read whole: its status, its text, and its JSON when the text is JSON. For
 * tests that talk to a payemu without the drift-checked client (a process about to be killed,
 * answers that are not meant to conform).
 */
export async function readAnswer(res: Response): Promise<{ status: number; text: string; json: any }> {
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}
