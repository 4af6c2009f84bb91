import {outside} from "./shapes.js";

export default outside({word: "little-killer", label: "Little killer", diagonal: true});
