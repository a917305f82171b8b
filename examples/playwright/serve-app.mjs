// Serves the example app's static files on 127.0.0.1 (the port is the first argument): what `vite preview` or any static server would do.
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'

const TYPES = { '/': 'text/html', '/index.html': 'text/html', '/app.js': 'text/javascript' }
const port = Number(process.argv[2] ?? 4173)

createServer(async (req, res) => {
  const path = new URL(req.url ?? '/', 'http://app').pathname
  const type = TYPES[path]
  if (type === undefined) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found')
    return
  }
  const file = path === '/' ? 'index.html' : path.slice(1)
  res.writeHead(200, { 'Content-Type': `${type}; charset=utf-8` }).end(await readFile(new URL(`./app/${file}`, import.meta.url)))
}).listen(port, '127.0.0.1', () => console.log(`The example app is at http://127.0.0.1:${port}/`))
