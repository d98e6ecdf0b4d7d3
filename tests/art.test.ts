/**
 * The art contract: every image the economy table names, and every file the UI and the site use,
 * exists under public/art as a small, self-contained SVG that can be inlined without id clashes.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOMParser, type Element as XmlElement } from '@xmldom/xmldom';
import { boostCatalogue, titleTiers } from '../engine/rules/economy.ts';

const publicDir = join(import.meta.dirname, '..', 'public');
const artDir = join(publicDir, 'art');

/** The files the UI engineers and the landing page rely on (docs/art.md lists their sizes). */
const requiredArt = [
  'coin', 'coin-small', 'money-token',
  'nav-home', 'nav-earn', 'nav-boost', 'nav-invite', 'nav-wallet',
  'icon-energy', 'icon-x', 'icon-telegram', 'icon-leaderboard', 'icon-lock',
  'hero', 'logo', 'feature-telegram-ogs', 'feature-twitter-ogs', 'feature-creators', 'feature-community',
];
/** 24 px icons that CSS colours through `color`. */
const currentColorIcons = requiredArt.filter((n) => n.startsWith('nav-') || n.startsWith('icon-'));

const economyArt = [...Object.values(boostCatalogue).map((b) => b.image), ...titleTiers.map((t) => t.image)];
const allArt = [...new Set([...economyArt, ...requiredArt])];

interface Parsed {
  root: XmlElement;
  text: string;
}

/** Parses strictly: any XML error or warning fails the test instead of being repaired. */
function parseSvg(path: string): Parsed {
  const text = readFileSync(path, 'utf8');
  const problems: string[] = [];
  const doc = new DOMParser({ onError: (level, message) => problems.push(`${level}: ${message}`) }).parseFromString(
    text,
    'image/svg+xml',
  );
  expect(problems, `${path} must be well-formed XML`).toEqual([]);
  const root = doc.documentElement;
  if (!root) throw new Error(`${path} has no root element`);
  return { root, text };
}

function allElements(root: XmlElement): XmlElement[] {
  const found: XmlElement[] = [root];
  const list = root.getElementsByTagName('*');
  for (let i = 0; i < list.length; i++) {
    const el = list.item(i);
    if (el) found.push(el);
  }
  return found;
}

/** Checks one file: svg root with a viewBox, nothing external or executable, prefixed unique ids. */
function checkSvg(path: string, idPrefix: string): void {
  const { root, text } = parseSvg(path);
  expect(root.localName).toBe('svg');
  expect(root.namespaceURI).toBe('http://www.w3.org/2000/svg');
  expect(root.getAttribute('viewBox') ?? '').toMatch(/^\s*-?[\d.]+\s+-?[\d.]+\s+[\d.]+\s+[\d.]+\s*$/);

  const ids = new Set<string>();
  for (const el of allElements(root)) {
    expect(el.localName, `${path} must not hold <${el.localName}>`).not.toMatch(/^(script|image|foreignObject|iframe)$/i);
    for (let i = 0; i < el.attributes.length; i++) {
      const attr = el.attributes.item(i);
      if (!attr) continue;
      const name = attr.name.toLowerCase();
      expect(name.startsWith('on'), `${path}: event handler ${attr.name}`).toBe(false);
      if (name === 'href' || name === 'xlink:href') expect(attr.value, `${path}: only internal links`).toMatch(/^#/);
      if (name === 'id') {
        expect(attr.value.startsWith(`${idPrefix}-`), `${path}: id "${attr.value}" must start with "${idPrefix}-"`).toBe(true);
        expect(ids.has(attr.value), `${path}: duplicate id "${attr.value}"`).toBe(false);
        ids.add(attr.value);
      }
    }
  }
  // url(#x) references must point at ids of this file; no url() to anything outside it.
  for (const match of text.matchAll(/url\(([^)]*)\)/g)) {
    const ref = (match[1] ?? '').replace(/['"]/g, '');
    expect(ref.startsWith('#') && ids.has(ref.slice(1)), `${path}: url(${ref}) must name an id in the file`).toBe(true);
  }
  expect(text).not.toMatch(/data:|https?:\/\/(?!www\.w3\.org\/)|@import/);
}

describe('public/art', () => {
  it.each(allArt)('%s.svg is a valid, self-contained SVG', (name) => {
    checkSvg(join(artDir, `${name}.svg`), name);
  });

  it('names 21 boost images and 5 title images in the economy table, all distinct', () => {
    expect(new Set(economyArt).size).toBe(26);
  });

  it.each(readdirSync(artDir).filter((f) => f.endsWith('.svg')))('%s (every file in the folder) is valid too', (file) => {
    checkSvg(join(artDir, file), file.replace(/\.svg$/, ''));
  });

  it('colours the 24 px icons with currentColor only', () => {
    for (const name of currentColorIcons) {
      const text = readFileSync(join(artDir, `${name}.svg`), 'utf8');
      expect(text, name).toMatch(/currentColor/);
      expect(text, `${name} must not hard-code a colour`).not.toMatch(/#[0-9a-f]{3,6}\b/i);
    }
  });

  it('stays light: hero under 25 KB, the whole folder under 250 KB', () => {
    expect(statSync(join(artDir, 'hero.svg')).size).toBeLessThan(25 * 1024);
    const total = readdirSync(artDir).reduce((sum, f) => sum + statSync(join(artDir, f)).size, 0);
    expect(total).toBeLessThan(250 * 1024);
  });
});

describe('public/favicon.svg and public/og-image.png', () => {
  it('has a valid favicon', () => {
    checkSvg(join(publicDir, 'favicon.svg'), 'favicon');
  });

  it('has a 1200×630 PNG share image', () => {
    const png = readFileSync(join(publicDir, 'og-image.png'));
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    // IHDR: width and height are big-endian 32-bit integers at bytes 16 and 20.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  });

  it('has a 1200×630 JPEG invite card (Bot API photo results are JPEG)', () => {
    const jpg = readFileSync(join(publicDir, 'invite-card.jpg'));
    expect(jpg.subarray(0, 3).toString('hex')).toBe('ffd8ff');
    // The frame header (SOF0/SOF2) holds height then width, big-endian 16-bit, 5 bytes after its marker.
    let at = 2;
    while (at < jpg.length && !(jpg[at] === 0xff && (jpg[at + 1] === 0xc0 || jpg[at + 1] === 0xc2))) at += 2 + jpg.readUInt16BE(at + 2);
    expect([jpg.readUInt16BE(at + 7), jpg.readUInt16BE(at + 5)]).toEqual([1200, 630]);
  });
});
