import {edge} from "./shapes.js";

export default edge({word: "v", label: "V (sum 5)", letter: "V"});
