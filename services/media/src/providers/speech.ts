import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOpenAI } from "@ai-sdk/openai";
import { generateSpeech } from "ai";
import type { Config } from "../config";

export interface Segment {
  speaker: string;
  text: string;
}

export interface Speech {
  /** MP3 bytes of every segment in order. */
  bytes: Buffer;
  durationMs: number;
}

/** Speaks a script, one voice per speaker. */
export interface SpeechProvider {
  name: "openai" | "offline";
  speak(segments: readonly Segment[], signal: AbortSignal): Promise<Speech>;
}

/** espeak-ng voices (language + variant), given to speakers in order of appearance. */
export const OFFLINE_VOICES = ["en-us+m3", "en-us+f3", "en-gb+m1", "en-gb+f2", "en-us+m7", "en-us+f4"] as const;
/** OpenAI's voices, given to speakers in order of appearance. */
export const OPENAI_VOICES = ["alloy", "nova", "onyx", "shimmer", "echo", "fable"] as const;

/** One voice per speaker, in order of first appearance, cycling when there are more speakers than voices. */
export function voicesFor(segments: readonly Segment[], voices: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const { speaker } of segments) if (!map.has(speaker)) map.set(speaker, voices[map.size % voices.length]!);
  return map;
}

function run(command: string, args: string[], signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { signal, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(Buffer.concat(out))
        : reject(new Error(`${command} exited ${code}: ${Buffer.concat(err).toString().slice(-500)}`)),
    );
  });
}

/** Joins audio files (any format ffmpeg reads) into one MP3 and measures it. */
async function joinToMp3(files: string[], dir: string, signal: AbortSignal): Promise<Speech> {
  const list = join(dir, "list.txt");
  await writeFile(list, files.map((f) => `file '${f}'`).join("\n"));
  const out = join(dir, "out.mp3");
  await run(
    "ffmpeg",
    [
      "-v",
      "error",
      "-y",
      "-f",
      "concat",
      "-safe",
      "0",
      "-i",
      list,
      "-ac",
      "1",
      "-codec:a",
      "libmp3lame",
      "-b:a",
      "64k",
      out,
    ],
    signal,
  );
  const seconds = Number(
    (await run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", out], signal))
      .toString()
      .trim(),
  );
  return { bytes: await readFile(out), durationMs: Math.round(seconds * 1000) };
}

async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "crafter-speech-"));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** espeak-ng (one voice per speaker) encoded to MP3 by ffmpeg, both from Debian. */
export function offlineSpeech(): SpeechProvider {
  return {
    name: "offline",
    speak: (segments, signal) =>
      inTempDir(async (dir) => {
        const voices = voicesFor(segments, OFFLINE_VOICES);
        const files: string[] = [];
        for (const [i, segment] of segments.entries()) {
          const file = join(dir, `${String(i).padStart(4, "0")}.wav`);
          // -g: a pause between words (10 ms units) for clarity; text on stdin would need a pipe, -- ends options.
          await run(
            "espeak-ng",
            ["-v", voices.get(segment.speaker)!, "-s", "165", "-g", "2", "-w", file, "--", segment.text],
            signal,
          );
          files.push(file);
        }
        return joinToMp3(files, dir, signal);
      }),
  };
}

/** OpenAI's speech API through the Vercel AI SDK, one request per segment, joined by ffmpeg. */
export function openAiSpeech(
  config: Pick<Config, "SPEECH_API_KEY" | "SPEECH_BASE_URL" | "SPEECH_MODEL" | "PROVIDER_TIMEOUT_MS">,
): SpeechProvider {
  if (!config.SPEECH_API_KEY) throw new Error("SPEECH_API_KEY is required with SPEECH_PROVIDER=openai");
  const openai = createOpenAI({ apiKey: config.SPEECH_API_KEY, baseURL: config.SPEECH_BASE_URL });
  const model = openai.speech(config.SPEECH_MODEL ?? "tts-1");
  return {
    name: "openai",
    speak: (segments, signal) =>
      inTempDir(async (dir) => {
        const voices = voicesFor(segments, OPENAI_VOICES);
        const files: string[] = [];
        for (const [i, segment] of segments.entries()) {
          const { audio } = await generateSpeech({
            model,
            text: segment.text,
            voice: voices.get(segment.speaker),
            outputFormat: "mp3",
            maxRetries: 1,
            abortSignal: AbortSignal.any([signal, AbortSignal.timeout(config.PROVIDER_TIMEOUT_MS)]),
          });
          const file = join(dir, `${String(i).padStart(4, "0")}.mp3`);
          await writeFile(file, audio.uint8Array);
          files.push(file);
        }
        return joinToMp3(files, dir, signal);
      }),
  };
}

export function createSpeechProvider(config: Config): SpeechProvider {
  return config.SPEECH_PROVIDER === "openai" ? openAiSpeech(config) : offlineSpeech();
}
