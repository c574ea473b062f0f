import { benchUnderstanding } from './bench'
const ids = process.argv[2] ? process.argv[2].split(',') : undefined
const r = await benchUnderstanding(ids ? { scenarioIds: ids, textIds: ['en-dental-booking-transcript'] } : {})
console.log(JSON.stringify(r, null, 2))
