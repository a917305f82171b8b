import * as fs from 'node:fs'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { type ReportFs, writeReportFile } from './report-file.js'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})
function scratch(): string {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-report-file-'))
  folders.push(folder)
  return folder
}
const refusing = (code: string) => () => {
  throw Object.assign(new Error(`${code}: refused`), { code })
}

test('writes the whole text, replacing a file that was there, and leaves no temporary file', () => {
  const folder = scratch()
  const file = join(folder, 'report.xml')
  writeFileSync(file, 'old')
  expect(writeReportFile(file, '<testsuites/>\n')).toBeUndefined()
  expect(readFileSync(file, 'utf8')).toBe('<testsuites/>\n')
  expect(readdirSync(folder)).toEqual(['report.xml'])
})

test('a folder it may not write in (as a user who is not root meets it) is one line, and nothing is written', () => {
  const folder = scratch()
  const file = join(folder, 'report.json')
  const denied: ReportFs = { ...fs, writeFileSync: refusing('EACCES') }
  expect(writeReportFile(file, '{}', denied)).toBe(`Failed to write ${file}: permission denied. Nothing was written.`)
  expect(readdirSync(folder)).toEqual([])
})

test('a rename that fails (a full or read-only disk) removes the temporary file and leaves the old report whole', () => {
  const folder = scratch()
  const file = join(folder, 'report.json')
  writeFileSync(file, '{"old": true}')
  const readOnly: ReportFs = { ...fs, renameSync: refusing('EROFS') }
  expect(writeReportFile(file, '{"new": true}', readOnly)).toBe(
    `Failed to write ${file}: the file system is read-only. Nothing was written.`,
  )
  expect(readdirSync(folder)).toEqual(['report.json'])
  expect(readFileSync(file, 'utf8')).toBe('{"old": true}')
  const odd: ReportFs = { ...fs, renameSync: refusing('EWHATEVER') }
  expect(writeReportFile(file, '{}', odd)).toBe(`Failed to write ${file}: EWHATEVER. Nothing was written.`)
})
