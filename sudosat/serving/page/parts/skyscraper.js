import {outside} from "./shapes.js";

export default outside({word: "skyscraper", label: "Skyscraper"});
