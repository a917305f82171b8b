// Baseline: raw node:http sending precomputed list bytes. Usage: node raw-server.mjs <body-file> <port>
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const body = readFileSync(process.argv[2])
const server = createServer((req, res) => {
  if (req.url === '/v1/store/orders') {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length })
    res.end(body)
  } else {
    res.writeHead(404).end()
  }
})
server.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => console.log(`ready ${server.address().port}`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
